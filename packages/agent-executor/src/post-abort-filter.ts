import type { AgentOutput } from '@cairn/core';

// What would read as more of the answer: the agent's text, reasoning and new tool calls, and user
// lines (Claude Code's `[Request interrupted by user for tool use]` is its status, not the user's).
const ANSWER_TYPES: ReadonlySet<AgentOutput['type']> = new Set([
  'user_message',
  'text_delta',
  'text',
  'reasoning_delta',
  'reasoning',
  'tool_input_delta',
  'tool_use',
]);

/**
 * Once a run is aborted, the events the CLI still writes are not the answer: Claude Code asked to
 * stop may start another turn, and what it says then was never meant to be stored. Kept after the
 * abort: the results of calls made before it (the CLI's own interrupted results, which close those
 * calls), the final result's status (session, usage, cost, turns; without its `result` text) and
 * usage. Dropped, and counted: text, reasoning, new tool calls and their results, user lines.
 * Dropped, not counted: the CLI's errors (the run's error is the abort).
 * The raw transcript still holds every line.
 */
export class PostAbortFilter {
  private aborted = false;
  private readonly calls = new Set<string>();
  /** Events dropped after the abort (streaming deltas not counted: their whole text is). */
  discarded = 0;

  abort(): void {
    this.aborted = true;
  }

  /** The event to store and show, or undefined when it is dropped. */
  pass(event: AgentOutput): AgentOutput | undefined {
    if (!this.aborted) {
      if (event.type === 'tool_use') this.calls.add(event.id);
      return event;
    }
    const dropped =
      ANSWER_TYPES.has(event.type) || (event.type === 'tool_result' && !this.calls.has(event.toolUseId));
    if (dropped) {
      if (!event.type.endsWith('_delta')) this.discarded++;
      return undefined;
    }
    // The CLI's "failed" result after a stop request (Claude Code's `error_during_execution`) is
    // the abort seen from its side: the run's one error is the abort's.
    if (event.type === 'error') return undefined;
    if (event.type === 'session_result' && event.result !== undefined) {
      const { result: _answer, ...status } = event;
      return status;
    }
    return event;
  }
}
