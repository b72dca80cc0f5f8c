import { type RetryOptions, withRetry } from './with-retry.js';

/**
 * Opens a provider stream with `withRetry`, retrying until its first piece has arrived. After
 * that a failure is final: a stream that already produced output is never replayed, because the
 * consumer has seen (and may have acted on) part of a reply the next attempt would not repeat.
 */
export async function* retryStream<T>(
  open: (attemptNumber: number) => Promise<AsyncIterable<T>> | AsyncIterable<T>,
  options: RetryOptions = {},
): AsyncGenerator<T, void, undefined> {
  const { iterator, first } = await withRetry(async (attemptNumber) => {
    const iterator = (await open(attemptNumber))[Symbol.asyncIterator]();
    try {
      return { iterator, first: await iterator.next() };
    } catch (error) {
      // Release the failed attempt's connection; its cleanup failing adds nothing to `error`.
      await iterator.return?.().catch(() => undefined);
      throw error;
    }
  }, options);
  if (first.done) return;
  try {
    yield first.value;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  } finally {
    await iterator.return?.();
  }
}
