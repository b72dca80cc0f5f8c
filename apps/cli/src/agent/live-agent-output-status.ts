import type { AgentOutput } from '@cairn/core';
import type { Colors } from '../render/colors.js';

// Task states worth a line of their own; `running` updates only with --verbose.
const TASK_ENDS = new Set(['completed', 'failed', 'stopped', 'killed']);

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function retryLine(event: Extract<AgentOutput, { type: 'retry' }>, colors: Colors): string {
  const of = event.maxAttempts === undefined ? '' : ` of ${event.maxAttempts}`;
  const after = [event.status, event.error].filter((part) => part !== undefined).join(' ');
  const delay = event.delayMs === undefined ? '' : ` in ${seconds(event.delayMs)}`;
  return colors.yellow(
    `↻ Retrying the model request (retry ${event.attempt}${of})${delay}${after === '' ? '' : ` after ${after}`}`,
  );
}

function taskLine(
  event: Extract<AgentOutput, { type: 'task_progress' }>,
  colors: Colors,
  verbose: boolean,
): string | undefined {
  const name = event.description ?? event.taskId ?? 'task';
  if (event.status === 'started') {
    // The sub-agent's prompt line repeats the start the task line already gave.
    return event.taskId === undefined ? undefined : colors.dim(`▸ Started: ${name}`);
  }
  if (TASK_ENDS.has(event.status)) {
    const took = event.durationMs === undefined ? '' : ` in ${seconds(event.durationMs)}`;
    // A task update without numbers says the same as the notification after it.
    if (event.summary === undefined && event.durationMs === undefined) return undefined;
    return colors.dim(
      `▪ ${event.status[0]?.toUpperCase()}${event.status.slice(1)}${took}: ${event.summary ?? name}`,
    );
  }
  if (!verbose) return undefined;
  const tool = event.lastToolName === undefined ? '' : ` (last tool: ${event.lastToolName})`;
  return colors.dim(`… ${name}${tool}`);
}

/**
 * The line the reference CLI shows for an event that is not a conversation message: a retry of the
 * model request, a sub-agent or background task starting and ending, the agent interrupted.
 * Undefined for every other event (and for progress updates unless `verbose`).
 */
export function agentStatusLine(event: AgentOutput, colors: Colors, verbose = false): string | undefined {
  switch (event.type) {
    case 'retry':
      return retryLine(event, colors);
    case 'task_progress':
      return taskLine(event, colors, verbose);
    case 'status':
      if (event.status === 'interrupted') return colors.yellow(`⏹ ${event.message}`);
      return verbose ? colors.dim(`· ${event.message}`) : undefined;
    default:
      return undefined;
  }
}
