import type { AgentOutput } from '@cairn/core';
import type { LineConverter } from '@cairn/provider-utils';
import type { AgentPermissions } from './agent-permissions.js';

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
 * How to stop a CLI when its run is aborted. The signal goes to the CLI's whole process group (its
 * tools' commands included); a CLI still running `graceMs` later gets SIGTERM, then SIGKILL after
 * another `graceMs`, and whatever is left of its group is killed once it has exited.
 */
export interface AgentCliStop {
  /** The signal the CLI stops on (ends its tool calls, writes its final result, exits). */
  readonly signal: NodeJS.Signals;
  /** How long it gets before each escalation; the executor's `killGraceMs` overrides it. */
  readonly graceMs?: number;
}

/** Turns an agent CLI's stderr, chunk by chunk, into events (the retries it logs there). Must never throw. */
export interface StderrEventConverter {
  push(chunk: Buffer | string): AgentOutput[];
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
  /**
   * Its stream ends with a result line (a `session_result` event), as both built-ins' do: a run
   * whose output ends without one did not finish and fails (`AGENT_FAILED`), even with exit code 0.
   * Default true; false for a CLI that has no such line.
   */
  readonly writesResult?: boolean;
  /** How an abort stops it; without one, SIGTERM (then SIGKILL) to its process group. */
  readonly stop?: AgentCliStop;
  /** Variables it must run with, set over the executor's `env`. */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Its own flags for `permissions` (`--permission-mode`, `--approval-mode`, `--allowedTools`, …),
   * placed before the caller's `extraArgs`. A CLI without it cannot be given `permissions`.
   */
  permissionArgs?(permissions: AgentPermissions): string[];
  /** A fresh converter of the CLI's stdout lines into events; one per run. Must never throw. */
  createConverter(): LineConverter<AgentOutput>;
  /**
   * A fresh converter of its stderr into events, one per run, for a CLI that writes some events
   * only there (Gemini CLI logs its API retries on stderr). Its events go where the stdout's go;
   * stderr is still kept for the run's error message as well.
   */
  createStderrConverter?(): StderrEventConverter;
}
