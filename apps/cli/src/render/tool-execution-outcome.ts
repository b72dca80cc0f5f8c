import type { CommandOutputDetails, ToolExecutionMetadata } from '@cairn/core';

/** How a tool execution ended, as the terminal and Markdown views mark it. */
export type ExecutionOutcome = 'ok' | 'error' | 'unfinished';

export function executionOutcome(execution: ToolExecutionMetadata): ExecutionOutcome {
  if (execution.status === 'unfinished') return 'unfinished';
  return execution.isError ? 'error' : 'ok';
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
