import { resolve } from 'node:path';
import {
  CairnError,
  type ConversationMode,
  ConversationModeSchema,
  type ConversationStore,
  definedFields,
  noopTelemetry,
  type Telemetry,
} from '@cairn/core';
import type { ToolProcessorRegistry } from '@cairn/message-processor';
import type { AgentCliDefinition } from './agent-cli-definition.js';
import type { AgentExecutorOptions } from './agent-executor-options.js';
import { AgentPermissionsSchema } from './agent-permissions.js';
import { resolveAgentCli } from './resolve-agent-cli.js';
import { DEFAULT_KILL_GRACE_MS } from './spawn-agent-process.js';
import { MAX_TRANSCRIPT_BYTES } from './transcript-buffer.js';

/** The executor's options, checked once and with defaults applied. */
export interface RunSettings {
  store: ConversationStore;
  cli: AgentCliDefinition;
  command: string;
  commandArgs: readonly string[];
  /** Absolute. */
  cwd: string;
  /** Set over `process.env` at each spawn. */
  env: Readonly<Record<string, string | undefined>>;
  extraArgs: readonly string[];
  /** The CLI's own flags for the `permissions` option (none without it). */
  permissionArgs: readonly string[];
  model?: string;
  toolProcessors?: ToolProcessorRegistry;
  pendingTimeoutMs?: number;
  /** The signal an abort sends first (the CLI definition's, else SIGTERM). */
  stopSignal: NodeJS.Signals;
  /** Before each escalation of an abort: the option, else the CLI definition's, else the default. */
  killGraceMs: number;
  /** How much raw stdout a run keeps as its transcript (`MAX_TRANSCRIPT_BYTES`; smaller in tests). */
  maxTranscriptBytes: number;
  mode: ConversationMode;
  agentId?: string;
  telemetry: Telemetry;
}

function invalid(message: string): CairnError {
  return new CairnError('INVALID_ARGUMENT', message);
}

function nonEmptyString(name: string, value: unknown): asserts value is string {
  if (typeof value !== 'string' || value === '') throw invalid(`${name} must be a non-empty string`);
}

function stringArray(name: string, value: unknown): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw invalid(`${name} must be an array of strings`);
  }
  return [...value];
}

// Permissions become command-line arguments: only the modes and tool names the schema allows.
function permissionArgsOf(cli: AgentCliDefinition, permissions: unknown): readonly string[] {
  if (permissions === undefined) return [];
  const parsed = AgentPermissionsSchema.safeParse(permissions);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalid(
      `permissions${issue?.path.map((key) => `.${String(key)}`).join('') ?? ''}: ${issue?.message}`,
    );
  }
  if (cli.permissionArgs === undefined)
    throw invalid(`${cli.name} takes no permissions (its definition has no permissionArgs)`);
  return cli.permissionArgs(parsed.data);
}

/** Checks `options` (`INVALID_ARGUMENT` naming the first bad one) and fills in the defaults. */
export function resolveRunSettings(options: AgentExecutorOptions): RunSettings {
  const { store, model, pendingTimeoutMs, messageFields = {} } = options;
  if (typeof store?.append !== 'function' || typeof store.load !== 'function') {
    throw invalid('store must be a ConversationStore');
  }
  const cli = resolveAgentCli(options.agent);
  const command = options.command ?? cli.defaultCommand;
  nonEmptyString('command', command);
  nonEmptyString('cwd', options.cwd);
  if (model !== undefined) nonEmptyString('model', model);
  if (pendingTimeoutMs !== undefined && !(pendingTimeoutMs > 0)) {
    throw invalid(`pendingTimeoutMs must be a positive number, got ${String(pendingTimeoutMs)}`);
  }
  const killGraceMs = options.killGraceMs ?? cli.stop?.graceMs ?? DEFAULT_KILL_GRACE_MS;
  if (!(Number.isFinite(killGraceMs) && killGraceMs >= 0)) {
    throw invalid(`killGraceMs must be a non-negative number, got ${String(killGraceMs)}`);
  }
  const mode = messageFields.mode ?? 'agent';
  if (!ConversationModeSchema.safeParse(mode).success)
    throw invalid(`messageFields.mode is not a mode: ${mode}`);
  if (messageFields.agentId !== undefined) nonEmptyString('messageFields.agentId', messageFields.agentId);
  return {
    store,
    cli,
    command,
    commandArgs: stringArray('commandArgs', options.commandArgs),
    // Absolute, so the session's cwd recorded in the log does not depend on the caller's.
    cwd: resolve(options.cwd),
    // The definition's variables are what the CLI needs to be stopped (GEMINI_CLI_NO_RELAUNCH).
    env: { ...options.env, ...cli.env },
    stopSignal: cli.stop?.signal ?? 'SIGTERM',
    extraArgs: stringArray('extraArgs', options.extraArgs),
    permissionArgs: permissionArgsOf(cli, options.permissions),
    killGraceMs,
    maxTranscriptBytes: MAX_TRANSCRIPT_BYTES,
    mode,
    telemetry: options.telemetry ?? noopTelemetry,
    ...definedFields({
      model,
      toolProcessors: options.toolProcessors,
      pendingTimeoutMs,
      agentId: messageFields.agentId,
    }),
  };
}
