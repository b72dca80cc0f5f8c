import type {
  AgentOutput,
  ConversationMessage,
  ConversationMode,
  ConversationStore,
  Telemetry,
} from '@cairn/core';
import type { ToolProcessorRegistry } from '@cairn/message-processor';
import type { AgentCliDefinition } from './agent-cli-definition.js';
import type { AgentPermissions } from './agent-permissions.js';

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
  /** Appended to every run's arguments, after the definition's own and the permission flags. */
  extraArgs?: readonly string[];
  /**
   * What the agent may do without asking, passed as the CLI's own flags (`AgentCliDefinition.permissionArgs`):
   * `{ mode: 'read-only' | 'edit' | 'full', allowedTools? }`, checked against `AgentPermissionsSchema`.
   * Without it the CLI's own default applies (headless, both built-ins refuse edits and commands
   * not allowed in their settings files).
   */
  permissions?: AgentPermissions;
  /** The model the CLI should use; the CLI's default when absent. */
  model?: string;
  /** Summaries and details of tool executions in the display view; the built-ins by default. */
  toolProcessors?: ToolProcessorRegistry;
  /** A tool call with no result after this long gets an interrupted result (default 10 minutes). */
  pendingTimeoutMs?: number;
  /**
   * After an abort's stop signal (SIGINT for the built-ins), how long to wait before SIGTERM, and
   * then before SIGKILL. Default: the definition's `stop.graceMs`, else 5000.
   */
  killGraceMs?: number;
  /** Copied onto every message the executor writes. */
  messageFields?: { agentId?: string; mode?: ConversationMode };
  /**
   * Traces each run as an agent invocation (`createOtelTelemetry` of `@cairn/otel`) and hands its
   * trace context to the CLI as `TRACEPARENT`/`TRACESTATE`, so a CLI that traces continues it.
   */
  telemetry?: Telemetry;
}

export interface AgentRunOptions {
  /** The conversation to append to; a new `agent-<uuid>` when absent. */
  conversationId?: string | undefined;
  prompt: string;
  /**
   * Aborting stops the agent and every process of its run (the CLI's stop signal to its process
   * group, then SIGTERM and SIGKILL); the run resolves with `LLM_ABORTED`. What the CLI writes
   * after the abort is not stored as the answer (see the README's "Abort").
   */
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
  /**
   * Live display, ahead of the store: when a tool call starts, the text before it and the call as a
   * `running` `tool_execution`, under the ids `onDisplayMessage` later gives the stored versions
   * (the finished execution replaces the running one). Join the two with `LiveDisplay` from
   * `@cairn/message-processor`. Never stored.
   */
  onLiveDisplayMessage?(message: ConversationMessage): void;
}
