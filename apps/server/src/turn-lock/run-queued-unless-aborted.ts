import type { KeyedSerialQueue } from '@cairn/core';
import { turnAbortedError } from './turn-aborted-error.js';

/**
 * `queue.run(key, task)`, except that aborting `signal` while the task is still queued rejects at once with
 * `LLM_ABORTED` and the task is skipped when its turn comes. Once the task started, `signal` is the task's
 * business.
 */
export function runQueuedUnlessAborted<T>(
  queue: KeyedSerialQueue,
  key: string,
  task: () => Promise<T>,
  signal: AbortSignal | undefined,
): Promise<T> {
  if (signal === undefined) return queue.run(key, task);
  if (signal.aborted) return Promise.reject(turnAbortedError(key, signal.reason));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(turnAbortedError(key, signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    queue
      .run(key, async () => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) throw turnAbortedError(key, signal.reason);
        return task();
      })
      .then(resolve, reject);
  });
}
