import { createInterface, type Interface } from 'node:readline/promises';
import { CairnError, type ConversationStore, definedFields } from '@cairn/core';
import type { RunApi, RunEvent, RunResult, RunState } from '@cairn/runtime';
import { runConversationId } from '@cairn/runtime';
import { displayView, loadExistingConversation } from '../chat/conversation-history.js';
import { cliFailure, exitCodeFor, formatCliError } from '../cli-error.js';
import type { CliIO } from '../io.js';
import type { Colors } from '../render/colors.js';
import { markdownEnabled } from '../render/markdown-enabled.js';
import { renderDisplayMessage } from '../render/render-display-message.js';
import { describeRunState, reportRunTurn, runRenderer } from '../runs/run-turns.js';
import { storedRuns } from '../runs/stored-runs.js';
import type { readWorkflowFile } from '../runs/workflow-file.js';
import type { CliSession } from '../session/open-session.js';
import { terminalApprovalPrompt } from '../session/terminal-approval.js';

interface RunDeps {
  session: CliSession;
  io: CliIO;
  colors: Colors;
  errColors: Colors;
  signal?: AbortSignal;
}

/** A run's state; an unknown id fails with the command that lists the real ones. */
async function existingRun(runs: Pick<RunApi, 'get'>, runId: string): Promise<RunState> {
  try {
    return await runs.get(runId);
  } catch (error) {
    if (!CairnError.is(error, 'STORE_NOT_FOUND')) throw error;
    throw cliFailure('STORE_NOT_FOUND', `there is no run "${runId}"`, '`cairn runs list` shows the ids');
  }
}

/** Fails unless the run is in the store: checked before a model is resolved for it. */
export async function assertRunExists(store: ConversationStore, runId: string): Promise<void> {
  await existingRun(storedRuns(store), runId);
}

/** The terminal a run talks to between turns, when there is one: replies, approvals, Ctrl-C. */
interface RunTerminal {
  rl: Interface;
  /** Aborts the running turn (the first Ctrl-C); a second Ctrl-C ends the command. */
  current?: AbortController | undefined;
  interrupted: boolean;
}

function openRunTerminal(deps: RunDeps): RunTerminal | undefined {
  const { io, colors } = deps;
  if (io.stdin.isTTY !== true || io.stdout.isTTY !== true) return undefined;
  const rl = createInterface({ input: io.stdin, output: io.stdout as NodeJS.WritableStream });
  const terminal: RunTerminal = { rl, interrupted: false };
  const interrupt = () => {
    if (terminal.current !== undefined && !terminal.current.signal.aborted) {
      terminal.current.abort();
      io.stdout.write(`${colors.yellow('\n⏹ aborting this turn — press Ctrl-C again to exit')}\n`);
      return;
    }
    terminal.interrupted = true;
    terminal.current?.abort();
    rl.close();
  };
  rl.on('SIGINT', interrupt);
  deps.session.approver.setPrompt(
    terminalApprovalPrompt({
      input: io.stdin,
      write: (text) => io.stdout.write(text),
      colors,
      signal: () => terminal.current?.signal,
      onInterrupt: interrupt,
    }),
  );
  return terminal;
}

async function turn(
  deps: RunDeps,
  terminal: RunTerminal | undefined,
  start: (onEvent: (event: RunEvent) => void, signal: AbortSignal) => Promise<RunResult>,
): Promise<RunResult> {
  const controller = new AbortController();
  if (terminal !== undefined) terminal.current = controller;
  const stop = () => controller.abort();
  // The process may have been asked to end between turns: this turn starts already aborted.
  if (deps.signal?.aborted) stop();
  deps.signal?.addEventListener('abort', stop, { once: true });
  const renderer = runRenderer(deps.session, deps.io, deps.colors);
  try {
    return await start((event) => renderer.onEvent(event), controller.signal);
  } finally {
    renderer.finish();
    deps.signal?.removeEventListener('abort', stop);
    if (terminal !== undefined) terminal.current = undefined;
  }
}

/**
 * After a turn, on a terminal, the run waits for the user's reply (an empty line just continues);
 * elsewhere the command ends and says how to continue later (the run is in the store).
 */
async function followUp(deps: RunDeps, terminal: RunTerminal | undefined, first: RunResult): Promise<number> {
  let result = first;
  const { io } = deps;
  try {
    while (
      terminal !== undefined &&
      result.success &&
      result.state.status !== 'completed' &&
      !terminal.interrupted &&
      deps.signal?.aborted !== true
    ) {
      reportRunTurn(result, io, deps.errColors);
      // SIGTERM or a hang-up while it waits for the reply ends the wait (and the command).
      const asked = deps.signal === undefined ? {} : { signal: deps.signal };
      const reply = (
        await terminal.rl.question(deps.colors.cyan('run › '), asked).catch(() => '/exit')
      ).trim();
      if (reply === '/exit' || terminal.interrupted || deps.signal?.aborted) break;
      const runId = result.runId;
      result = await turn(deps, terminal, (onEvent, signal) =>
        deps.session.runtime.runs.continue({
          runId,
          ...(reply === '' ? {} : { userInput: reply }),
          onEvent,
          signal,
        }),
      );
    }
  } finally {
    deps.session.approver.setPrompt(undefined);
    terminal?.rl.close();
  }
  reportRunTurn(result, io, deps.errColors);
  if (terminal?.interrupted) return 130;
  if (result.success) return 0;
  io.stderr.write(`${formatCliError(result.error)}\n`);
  return exitCodeFor(result.error);
}

/** `cairn workflow run <file>`: starts a run of the file's workflow and runs its first turn. */
export async function runWorkflowFile(
  deps: RunDeps,
  options: { file: Awaited<ReturnType<typeof readWorkflowFile>>; input?: string; runId?: string },
): Promise<number> {
  const terminal = openRunTerminal(deps);
  const result = await turn(deps, terminal, (onEvent, signal) =>
    deps.session.runtime.runs.start({
      workflow: options.file.ref,
      ...definedFields({ input: options.input, runId: options.runId }),
      onEvent,
      signal,
    }),
  );
  return followUp(deps, terminal, result);
}

/** `cairn runs continue <runId>`: the next turn, from the state in the store (after any restart). */
export async function continueRun(
  deps: RunDeps,
  options: { runId: string; input?: string },
): Promise<number> {
  await existingRun(deps.session.runtime.runs, options.runId);
  const terminal = openRunTerminal(deps);
  const result = await turn(deps, terminal, (onEvent, signal) =>
    deps.session.runtime.runs.continue({
      runId: options.runId,
      ...definedFields({ userInput: options.input }),
      onEvent,
      signal,
    }),
  );
  return followUp(deps, terminal, result);
}

interface StoredRunDeps {
  store: ConversationStore;
  io: CliIO;
  colors: Colors;
  verbose?: boolean;
  /** `--plain`: the answers as the model wrote them, no Markdown rendering. */
  plain?: boolean;
}

/** `cairn runs list` (the store only: no model needed). */
export async function listRuns(
  deps: StoredRunDeps,
  options: { limit: number; json?: boolean },
): Promise<number> {
  const page = await storedRuns(deps.store).list({ limit: options.limit });
  for (const state of page.runs) {
    deps.io.stdout.write(
      options.json ? `${JSON.stringify(state)}\n` : `${describeRunState(state, deps.colors)}\n`,
    );
  }
  if (page.runs.length === 0 && !options.json) {
    deps.io.stdout.write(`${deps.colors.dim('no runs yet — start one with `cairn workflow run <file>`')}\n`);
  }
  return 0;
}

/** `cairn runs show <runId>`: where the run stands, then its conversation. */
export async function showRun(deps: StoredRunDeps, runId: string): Promise<number> {
  const state = await existingRun(storedRuns(deps.store), runId);
  deps.io.stdout.write(`${describeRunState(state, deps.colors)}\n`);
  if (state.input !== undefined) deps.io.stdout.write(`${deps.colors.dim(`input: ${state.input}`)}\n`);
  const log = await loadExistingConversation(deps.store, runConversationId(runId), 'cairn runs list');
  const markdown = markdownEnabled(deps.io.stdout, { plain: deps.plain === true });
  for (const message of displayView(log)) {
    deps.io.stdout.write(
      renderDisplayMessage(message, {
        colors: deps.colors,
        verbose: deps.verbose === true,
        markdown,
        width: deps.io.stdout.columns,
      }),
    );
  }
  return 0;
}
