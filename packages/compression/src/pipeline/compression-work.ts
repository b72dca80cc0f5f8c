import type { ModelMessage, Tokenizer } from '@cairn/core';
import type { CompressionStep, CompressionSummary } from './compression-types.js';
import { unitStarts } from './turn-units.js';

/** One compression in progress: the request's messages as the steps change them, and what they did. */
export interface CompressionWork {
  messages: ModelMessage[];
  tokens: number;
  tokenizer: Tokenizer;
  /** Where the part that must stay as it is starts (moves as messages are replaced). */
  protectedFrom: number;
  /** Where compressible messages start: after the system prompt and what the steps wrote. */
  floor: number;
  steps: CompressionStep[];
  summaries: CompressionSummary[];
  /** Index in the caller's messages of each working message (-1 for ones the pipeline wrote). */
  origin: number[];
}

/** A message's own tokens: its count alone, less what an empty request costs. */
export function messageTokens(work: CompressionWork, message: ModelMessage): number {
  return work.tokenizer.count([message]) - work.tokenizer.count([]);
}

/**
 * The oldest units that, left out, bring the request to `target` with `room` left for what
 * replaces them (all the compressible ones if none do), extended to whole turns.
 */
export function oldestUnitsToRemove(
  work: CompressionWork,
  target: number,
  room: number,
): { end: number; tokens: number } {
  const starts = unitStarts(work.messages, work.floor, work.protectedFrom);
  let removed = 0;
  let end = work.floor;
  let unit = 0;
  const take = () => {
    const stop = starts[unit + 1] ?? work.protectedFrom;
    for (let index = starts[unit] as number; index < stop; index++)
      removed += messageTokens(work, work.messages[index] as ModelMessage);
    end = stop;
    unit++;
  };
  while (unit < starts.length && work.tokens - removed + room > target) take();
  // Whole turns: up to the next user message, so no answer stays without its request.
  while (unit < starts.length && (work.messages[end] as ModelMessage).role !== 'user') take();
  return { end, tokens: removed };
}

/** Replaces the working messages from the floor up to `end` with `inserted`. */
export function replaceOldest(work: CompressionWork, end: number, inserted: ModelMessage[]): void {
  const count = end - work.floor;
  work.messages.splice(work.floor, count, ...inserted);
  work.origin.splice(work.floor, count, ...inserted.map(() => -1));
  work.protectedFrom += inserted.length - count;
  work.floor += inserted.length;
}
