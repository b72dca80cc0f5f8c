import { KeyedSerialQueue } from '@cairn/core';

// One queue for the process: two tool calls on one file may come from different loops.
const queue = new KeyedSerialQueue();

/**
 * Runs `run` once every earlier holder of `key` (a file's real path) is done, so calls on one file
 * (two edits of one assistant message run in parallel) each see the others' writes; different keys
 * run in parallel. Waiting ends early with the abort reason when `signal` aborts: a cancelled call
 * does not go on to write once its turn comes.
 */
export function withFileLock<T>(key: string, signal: AbortSignal, run: () => Promise<T>): Promise<T> {
  return queue.run(key, run, { signal });
}

/** How many keys have holders or waiters (for tests: none are left behind). */
export function heldFileLocks(): number {
  return queue.size;
}
