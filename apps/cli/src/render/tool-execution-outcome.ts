import type { CommandOutputDetails, ToolExecutionMetadata } from '@cairn/core';
import { describeApprovalRequest } from './approval-text.js';

/** How a tool execution ended (or that it waits for a decision), as the terminal and Markdown views mark it. */
export type ExecutionOutcome = 'ok' | 'error' | 'unfinished' | 'awaiting_approval';

export function executionOutcome(execution: ToolExecutionMetadata): ExecutionOutcome {
  if (execution.status === 'unfinished' || execution.status === 'awaiting_approval') return execution.status;
  return execution.isError ? 'error' : 'ok';
}

/**
 * The execution's one line. A call awaiting approval has not run: it says what it asks to do and
 * the request's id (what `cairn approvals` decides), not that it did not finish.
 */
export function executionSummary(execution: ToolExecutionMetadata): string {
  if (execution.status !== 'awaiting_approval') return execution.summary;
  const id = execution.approval?.id;
  return `${describeApprovalRequest(execution)} — awaiting approval${id === undefined ? '' : ` (${id})`}`;
}

/** A command failed when its tool call did, or it exited non-zero (some agent CLIs report that as a success). */
export function commandFailed(execution: ToolExecutionMetadata, details: CommandOutputDetails): boolean {
  return execution.isError || details.exitCode !== 0;
}

/** What the command printed: stdout, then stderr (where failures usually explain themselves). */
export function commandOutputText({ stdout, stderr }: CommandOutputDetails): string {
  return [stdout.trimEnd(), stderr.trimEnd()].filter((part) => part !== '').join('\n');
}

/** "exit code 2", or how a command without one ended. */
export function exitCodeText(exitCode: number | null): string {
  return exitCode === null ? 'stopped without an exit code' : `exit code ${exitCode}`;
}
