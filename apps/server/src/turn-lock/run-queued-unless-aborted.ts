import type { KeyedSerialQueue } from '@cairn/core';
import { turnAbortedError } from './turn-aborted-error.js';

/**
 * `queue.run(key, task, { signal })`, with an abort while the task is still queued reported as
 * `LLM_ABORTED` (the task is then skipped). Once the task started, `signal` is the task's business and
 * whatever it throws passes through as it is.
 */
export async function runQueuedUnlessAborted<T>(
  queue: KeyedSerialQueue,
  key: string,
  task: () => Promise<T>,
  signal: AbortSignal | undefined,
): Promise<T> {
  if (signal === undefined) return queue.run(key, task);
  let started = false;
  try {
    return await queue.run(
      key,
      () => {
        started = true;
        return task();
      },
      { signal },
    );
  } catch (error) {
    if (!started && signal.aborted) throw turnAbortedError(key, signal.reason);
    throw error;
  }
}
