import { createInterface } from 'node:readline/promises';
import type { RunEvent, RunResult } from '@cairn/runtime';
import { runConversationId } from '@cairn/runtime';
import { displayView, loadExistingConversation } from '../chat/conversation-history.js';
import { exitCodeFor, formatCliError } from '../cli-error.js';
import type { CliIO } from '../io.js';
import type { Colors } from '../render/colors.js';
import { renderDisplayMessage } from '../render/render-display-message.js';
import { describeRunState, reportRunTurn, runRenderer } from '../runs/run-turns.js';
import type { readWorkflowFile } from '../runs/workflow-file.js';
import type { CliSession } from '../session/open-session.js';

interface RunDeps {
  session: CliSession;
  io: CliIO;
  colors: Colors;
  signal?: AbortSignal;
}

async function turn(
  deps: RunDeps,
  start: (onEvent: (event: RunEvent) => void) => Promise<RunResult>,
): Promise<RunResult> {
  const renderer = runRenderer(deps.session, deps.io, deps.colors);
  try {
    return await start((event) => renderer.onEvent(event));
  } finally {
    renderer.finish();
  }
}

/**
 * After a turn, on a terminal, the run waits for the user's reply (an empty line just continues);
 * elsewhere the command ends and says how to continue later (the run is in the store).
 */
async function followUp(deps: RunDeps, first: RunResult): Promise<number> {
  let result = first;
  const { io } = deps;
  const interactive = io.stdin.isTTY === true && io.stdout.isTTY === true;
  const rl = interactive
    ? createInterface({ input: io.stdin, output: io.stdout as NodeJS.WritableStream })
    : undefined;
  try {
    while (rl !== undefined && result.state.status !== 'completed' && !deps.signal?.aborted) {
      reportRunTurn(result, io, deps.colors);
      const reply = (await rl.question(deps.colors.cyan('run › ')).catch(() => '/exit')).trim();
      if (reply === '/exit') break;
      result = await turn(deps, (onEvent) =>
        deps.session.runtime.runs.continue({
          runId: result.runId,
          ...(reply === '' ? {} : { userInput: reply }),
          onEvent,
          ...(deps.signal === undefined ? {} : { signal: deps.signal }),
        }),
      );
    }
  } finally {
    rl?.close();
  }
  reportRunTurn(result, io, deps.colors);
  if (result.success) return 0;
  io.stderr.write(`${formatCliError(result.error)}\n`);
  return exitCodeFor(result.error);
}

/** `cairn workflow run <file>`: starts a run of the file's workflow and runs its first turn. */
export async function runWorkflowFile(
  deps: RunDeps,
  options: { file: Awaited<ReturnType<typeof readWorkflowFile>>; input?: string; runId?: string },
): Promise<number> {
  const result = await turn(deps, (onEvent) =>
    deps.session.runtime.runs.start({
      workflow: options.file.ref,
      ...(options.input === undefined ? {} : { input: options.input }),
      ...(options.runId === undefined ? {} : { runId: options.runId }),
      onEvent,
      ...(deps.signal === undefined ? {} : { signal: deps.signal }),
    }),
  );
  return followUp(deps, result);
}

/** `cairn runs continue <runId>`: the next turn, from the state in the store (after any restart). */
export async function continueRun(
  deps: RunDeps,
  options: { runId: string; input?: string },
): Promise<number> {
  const result = await turn(deps, (onEvent) =>
    deps.session.runtime.runs.continue({
      runId: options.runId,
      ...(options.input === undefined ? {} : { userInput: options.input }),
      onEvent,
      ...(deps.signal === undefined ? {} : { signal: deps.signal }),
    }),
  );
  return followUp(deps, result);
}

/** `cairn runs list`. */
export async function listRuns(
  deps: Omit<RunDeps, 'signal'>,
  options: { limit: number; json?: boolean },
): Promise<number> {
  const page = await deps.session.runtime.runs.list({ limit: options.limit });
  for (const state of page.runs) {
    deps.io.stdout.write(
      options.json ? `${JSON.stringify(state)}\n` : `${describeRunState(state, deps.colors)}\n`,
    );
  }
  if (page.runs.length === 0 && !options.json)
    deps.io.stdout.write(deps.colors.dim('no runs yet — start one with `cairn workflow run <file>`\n'));
  return 0;
}

/** `cairn runs show <runId>`: where the run stands, then its conversation. */
export async function showRun(deps: Omit<RunDeps, 'signal'>, runId: string): Promise<number> {
  const state = await deps.session.runtime.runs.get(runId);
  deps.io.stdout.write(`${describeRunState(state, deps.colors)}\n`);
  if (state.input !== undefined) deps.io.stdout.write(deps.colors.dim(`input: ${state.input}\n`));
  const log = await loadExistingConversation(deps.session.store, runConversationId(runId), 'cairn runs list');
  for (const message of displayView(log, deps.session.workspace)) {
    deps.io.stdout.write(
      renderDisplayMessage(message, { colors: deps.colors, verbose: deps.session.settings.verbose }),
    );
  }
  return 0;
}
