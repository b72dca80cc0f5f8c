import { definedFields } from '@cairn/core';
import { type RunResult, type RunState, runConversationId } from '@cairn/runtime';
import type { CliIO } from '../io.js';
import { waitingLines } from '../render/approval-text.js';
import type { Colors } from '../render/colors.js';
import { formatStoredTime } from '../render/format-numbers.js';
import { createLiveTurnRenderer, type LiveTurnRenderer } from '../render/live-turn-renderer.js';
import { markdownEnabled } from '../render/markdown-enabled.js';
import { createSpinner } from '../render/spinner.js';
import type { CliSession } from '../session/open-session.js';

/** A run's turn shown live, as a chat turn is. */
export function runRenderer(session: CliSession, io: CliIO, colors: Colors): LiveTurnRenderer {
  return createLiveTurnRenderer({
    out: io.stdout,
    colors,
    cwd: session.workspace,
    markdown: markdownEnabled(io.stdout, session.settings),
    modelLabel: session.model.modelId,
    spinner: createSpinner(io.stdout, { enabled: io.stdout.isTTY === true, colors }),
    verbose: session.settings.verbose,
    ...definedFields({ width: io.stdout.columns }),
  });
}

/** `run-42  active  step "review" (2 done)  article/review`. */
export function describeRunState(state: RunState, colors: Colors): string {
  const status = state.status === 'completed' ? colors.green(state.status) : colors.yellow(state.status);
  const where = state.status === 'completed' ? 'finished' : `at step "${state.currentNodeId}"`;
  return `${state.runId}  ${status}  ${where} (${state.stepsCompleted.length} steps done)  ${colors.dim(`${state.packageName}/${state.workflowId} · ${formatStoredTime(state.updatedAt)}`)}`;
}

/** After a turn: where the run stands, and how to go on when it is waiting. */
export function reportRunTurn(result: RunResult, io: CliIO, colors: Colors): void {
  io.stderr.write(`${describeRunState(result.state, colors)}\n`);
  if (result.waiting !== undefined)
    io.stderr.write(waitingLines(runConversationId(result.runId), result.waiting, colors));
  if (result.state.status !== 'completed') {
    io.stderr.write(`${colors.dim(`continue with: cairn runs continue ${result.runId} [--input "…"]`)}\n`);
  }
}
