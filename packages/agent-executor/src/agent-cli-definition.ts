import type { AgentOutput } from '@cairn/core';
import type { LineConverter } from '@cairn/provider-utils';

/** What a CLI definition needs to build the command line of one run. */
export interface AgentCliArgsInput {
  prompt: string;
  model?: string;
  /**
   * The agent's own session to continue (its id, as the CLI reported it), already checked against
   * `RESUME_SESSION_ID_PATTERN`: it never starts with `-`. Pass it joined to its option
   * (`--resume=<id>`) where the CLI accepts that.
   */
  resumeSessionId?: string;
  /** Caller-supplied arguments, appended after the definition's own. */
  extraArgs: readonly string[];
}

/**
 * How to run one agent CLI: its arguments and the converter of its stdout. Claude Code and Gemini
 * CLI are built in (`claudeCodeCli`, `geminiCli`); another CLI that prints JSON lines can be added
 * by writing one of these.
 */
export interface AgentCliDefinition {
  /** A label for messages ("Claude Code"). */
  readonly name: string;
  /**
   * The `providerMetadata` namespace its sessions are recorded under: the `provider` of the
   * converter's `session_start` event. The executor reads `sessionId` from it to resume.
   */
  readonly provider: string;
  /** The executable run when the executor has no `command`. */
  readonly defaultCommand: string;
  buildArgs(input: AgentCliArgsInput): string[];
  /** A fresh converter of the CLI's stdout lines into events; one per run. Must never throw. */
  createConverter(): LineConverter<AgentOutput>;
}
