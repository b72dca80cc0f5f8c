import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type AgentPermissions, createAgentExecutor } from '@cairn/agent-executor';
import type { ConversationStore } from '@cairn/core';
import { definedFields } from '@cairn/core';
import { type OtelSdk, startOtelSdk } from '@cairn/otel/node';
import { AGENT_CLIS, type AgentChoice, agentCommand } from '../agent/agent-clis.js';
import { agentRunFailure } from '../agent/agent-run-failure.js';
import { agentRunSummary } from '../agent/agent-run-summary.js';
import { findResumableConversation } from '../agent/find-resumable-conversation.js';
import { LiveAgentOutput } from '../agent/live-agent-output.js';
import { loadExistingConversation } from '../chat/conversation-history.js';
import { cliFailure, exitCodeFor, formatCliError } from '../cli-error.js';
import type { CliIO } from '../io.js';
import type { Colors } from '../render/colors.js';
import { markdownEnabled } from '../render/markdown-enabled.js';

export interface AgentCommandOptions {
  agent: AgentChoice;
  prompt: string;
  /** The agent's working directory (relative to `io.cwd`). */
  cwd: string;
  /** Continue the agent's own session: `conversationId`'s, else the latest conversation's in `cwd`. */
  resume?: boolean;
  conversationId?: string;
  /** The executable (default claude / gemini / codex / qwen; env CAIRN_<CLAUDE|GEMINI|CODEX|QWEN>_COMMAND override) */
  command?: string | undefined;
  model?: string;
  /**
   * What the agent may do without asking, passed as the CLI's own flags. Default read-only: it
   * reads and searches, and edits and commands are refused unless allowed here.
   */
  permissions?: AgentPermissions;
  /** Print each `AgentOutput` event as a JSON line instead of the rendered output. */
  json?: boolean;
  verbose?: boolean;
  /** `--plain`: the agent's answers as it wrote them, no Markdown rendering. */
  plain?: boolean;
}

export interface AgentCommandDeps {
  io: CliIO;
  store: ConversationStore;
  colors: Colors;
  /** Aborting (Ctrl-C) stops the agent; the run ends with exit code 130. */
  signal?: AbortSignal;
  /** `--otel`: the run traced (its CLI gets `TRACEPARENT`), exported over OTLP/HTTP before the command ends. */
  otel?: boolean;
}

/** The safe default: the agent reads and searches; it edits or runs commands only when allowed. */
export const DEFAULT_AGENT_PERMISSIONS: AgentPermissions = { mode: 'read-only' };

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * `cairn agent claude|gemini|codex|qwen "<prompt>"`: runs the agent CLI through the agent executor, which
 * stores its work as a conversation, and shows it live. Ends with the conversation id, how to
 * continue it and what the run cost (stderr); a failed run with the error and its exit code.
 */
export async function runAgentCommand(options: AgentCommandOptions, deps: AgentCommandDeps): Promise<number> {
  const { io, store, colors } = deps;
  let otel: OtelSdk | undefined;
  try {
    if (deps.otel) otel = await startOtelSdk({ serviceName: 'cairn', env: io.env });
    const cli = AGENT_CLIS[options.agent];
    const cwd = resolve(io.cwd, options.cwd);
    // Checked here so a typo stores nothing (the executor would record a failed run).
    if (!(await isDirectory(cwd)))
      throw cliFailure('INVALID_ARGUMENT', `--cwd ${options.cwd} is not a directory`);
    const command = agentCommand(cli, options.command, io.env);
    // Resuming needs the conversation to be there: a mistyped id is named, with where the ids are.
    if (options.resume && options.conversationId !== undefined)
      await loadExistingConversation(store, options.conversationId);
    const conversationId =
      options.conversationId ??
      (options.resume ? await findResumableConversation(store, options.agent, cli, cwd) : undefined);

    const executor = createAgentExecutor({
      store,
      agent: cli.definition,
      cwd,
      command,
      env: io.env,
      permissions: options.permissions ?? DEFAULT_AGENT_PERMISSIONS,
      ...definedFields({ model: options.model, telemetry: otel?.telemetry }),
    });
    const live = new LiveAgentOutput({
      out: io.stdout,
      colors,
      json: options.json,
      verbose: options.verbose,
      markdown: markdownEnabled(io.stdout, { plain: options.plain === true }),
    });
    const result = await executor.run({
      prompt: options.prompt,
      ...definedFields({ conversationId }),
      ...(options.resume ? { resume: true } : {}),
      ...definedFields({ signal: deps.signal }),
      ...live.listeners,
    });
    live.end(result.error);

    if (options.verbose && result.stderr.trim() !== '') {
      io.stderr.write(colors.dim(`${cli.definition.name} stderr:\n${result.stderr.trimEnd()}\n`));
    }
    // Without a session there is nothing to continue (the CLI did not start, or said nothing).
    if (result.sessionId !== undefined) {
      const elsewhere = cwd === resolve(io.cwd) ? {} : { cwd };
      io.stderr.write(agentRunSummary(result, { agent: options.agent, colors, ...elsewhere }));
    }
    if (result.error === undefined) return 0;
    const failure = agentRunFailure(result.error, cli, command);
    io.stderr.write(`${formatCliError(failure)}\n`);
    return exitCodeFor(failure);
  } catch (error) {
    io.stderr.write(`${formatCliError(error)}\n`);
    return exitCodeFor(error);
  } finally {
    await otel?.shutdown();
  }
}
