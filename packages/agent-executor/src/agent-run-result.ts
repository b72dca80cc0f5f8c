import type { CairnErrorCode, ConversationMessage, TokenUsage } from '@cairn/core';

/** Why a run failed, as also persisted in the conversation's error message. */
export interface AgentRunError {
  code: CairnErrorCode;
  message: string;
}

export interface AgentRunResult {
  conversationId: string;
  /** Set as `runId` on every message of the run and naming its transcript. */
  runId: string;
  /** The agent's session id (pass it as `resume` to continue). */
  sessionId?: string;
  /**
   * The process exited with 0 and the CLI reported no failure. False for a process that could not
   * start, was aborted, crashed, exited non-zero, cut its output mid-line, or reported an error result.
   */
  success: boolean;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  error?: AgentRunError;
  /** The end of the CLI's stderr (at most 64 KiB). */
  stderr: string;
  /** As the CLI reported it in its final result. */
  usage?: TokenUsage;
  costUsd?: number;
  turns?: number;
  durationMs?: number;
  /** The final text of the agent, as its CLI reported it in its final result. */
  result?: string;
  /** `result`, or `''` when the CLI reported no final text (a run that failed before it): always a string. */
  text: string;
  /**
   * The store blob holding the run's raw stdout, when the process ran: its first
   * `MAX_TRANSCRIPT_BYTES` (64 MiB), then a `cairn_transcript_truncated` JSON line if there was more.
   */
  transcriptRef?: string;
  /** The log messages stored by this run, the prompt first. */
  messages: ConversationMessage[];
}
