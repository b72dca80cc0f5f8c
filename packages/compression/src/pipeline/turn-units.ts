import type { ModelMessage } from '@cairn/core';

/**
 * The units compression removes or summarises whole, as start indices in `[from, to)`: a user
 * message; an assistant message with the results of its calls (they never part); any other
 * message. `to` is a unit boundary by construction of the callers (see `protectedStart`).
 */
export function unitStarts(messages: readonly ModelMessage[], from: number, to: number): number[] {
  const starts: number[] = [];
  for (let index = from; index < to; index++) {
    if ((messages[index] as ModelMessage).role !== 'tool' || index === from) starts.push(index);
  }
  return starts;
}

/** The leading system messages: the prompt, never compressed. */
export function systemPromptEnd(messages: readonly ModelMessage[]): number {
  let end = 0;
  while (end < messages.length && (messages[end] as ModelMessage).role === 'system') end++;
  return end;
}

/**
 * Where the part compression must leave alone starts: the last `minRecent` messages (moved back
 * so no assistant is cut from its results), anything at or after `limit` (a running loop's own
 * messages), and the latest user message, the request being worked on.
 */
export function protectedStart(
  messages: readonly ModelMessage[],
  minRecent: number,
  limit: number,
  floor: number,
): number {
  let start = Math.min(limit, Math.max(floor, messages.length - minRecent));
  while (start > floor && (messages[start] as ModelMessage | undefined)?.role === 'tool') start--;
  for (let index = messages.length - 1; index >= floor; index--) {
    if ((messages[index] as ModelMessage).role === 'user') return Math.min(start, index);
  }
  return start;
}
