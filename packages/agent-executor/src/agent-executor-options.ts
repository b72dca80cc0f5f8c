import type { AgentOutput, ConversationMessage, ConversationMode, ConversationStore } from '@cairn/core';
import type { ToolProcessorRegistry } from '@cairn/message-processor';
import type { AgentCliDefinition } from './agent-cli-definition.js';

/** A built-in agent CLI, by name. */
export type AgentCliName = 'claude-code' | 'gemini-cli' | 'codex' | 'qwen-code';

export interface AgentExecutorOptions {
  /** Where each run's prompt, the agent's messages and the raw transcript are written. */
  store: ConversationStore;
  /** `claude-code`, `gemini-cli`, `codex`, `qwen-code`, or the definition of another CLI. */
  agent: AgentCliName | AgentCliDefinition;
  /** The executable (a name on `PATH` or a path). Default: the CLI's own (`claude`, `gemini`). */
  command?: string;
  /** Arguments put before the CLI's own (when `command` is an interpreter: `node`, `npx`). */
  commandArgs?: readonly string[];
  /** The agent's working directory. */
  cwd: string;
  /** Variables set over `process.env`; an `undefined` value removes one. */
  env?: Record<string, string | undefined>;
  /** Appended to every run's arguments (`--permission-mode`, `--yolo`, …). */
  extraArgs?: readonly string[];
  /** The model the CLI should use; the CLI's default when absent. */
  model?: string;
  /** Summaries and details of tool executions in the display view; the built-ins by default. */
  toolProcessors?: ToolProcessorRegistry;
  /** A tool call with no result after this long gets an interrupted result (default 10 minutes). */
  pendingTimeoutMs?: number;
  /** After an abort's SIGTERM, how long to wait before SIGKILL. Default 5000. */
  killGraceMs?: number;
  /** Copied onto every message the executor writes. */
  messageFields?: { agentId?: string; mode?: ConversationMode };
}

export interface AgentRunOptions {
  /** The conversation to append to; a new `agent-<uuid>` when absent. */
  conversationId?: string | undefined;
  prompt: string;
  /** Aborting stops the agent (SIGTERM, then SIGKILL); the run resolves with `LLM_ABORTED`. */
  signal?: AbortSignal | undefined;
  /**
   * Continue the agent's own session: `true` for the newest one recorded in the conversation in this
   * executor's `cwd` (the CLIs keep sessions per directory), or a session id (`RESUME_SESSION_ID_PATTERN`:
   * a letter or digit, then letters, digits, `.`, `_`, `-`). Rejects with `INVALID_ARGUMENT`, before
   * anything is stored, for an id of another shape, for `true` when the conversation has no session
   * of this CLI, or when its sessions were all recorded in other directories.
   */
  resume?: boolean | string;
  /** Every event converted from the CLI's output, the echoed prompt included. */
  onEvent?(event: AgentOutput): void;
  /** Each log message once stored (with its `seq`; large outputs offloaded). */
  onLogMessage?(message: ConversationMessage): void;
  /** The display view of the stored messages, as `toDisplayMessages` gives it for the reloaded log. */
  onDisplayMessage?(message: ConversationMessage): void;
}
