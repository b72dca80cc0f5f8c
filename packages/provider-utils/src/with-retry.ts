import { CairnError } from '@cairn/core';
import { abortableSleep, abortedError } from './abortable-sleep.js';
import { classifyError } from './classify-error.js';

/** One scheduled retry, as reported to `onRetry`. */
export interface RetryEvent {
  /** The failure that will be retried. */
  error: CairnError;
  /** 1 for the first retry. */
  retry: number;
  delayMs: number;
}

export interface RetryOptions {
  /** Retries after the first attempt (default 2); 0 disables retrying. */
  maxRetries?: number;
  /** The backoff before the first retry, doubled for each further one (default 500). */
  baseDelayMs?: number;
  /** No wait is longer, whatever `Retry-After` says (default 30 000). */
  maxDelayMs?: number;
  signal?: AbortSignal;
  /**
   * When given, errors that are not `CairnError`s are classified with `classifyError` for this
   * provider (and thrown classified); otherwise they are thrown unchanged, never retried.
   */
  provider?: string;
  onRetry?: (event: RetryEvent) => void;
  /** A number in [0, 1) for the jitter (default `Math.random`). */
  random?: () => number;
  /** The wait between attempts (default: an abortable timer). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Runs `attempt` until it succeeds, retrying retryable `CairnError`s up to `maxRetries` times. The
 * wait is the error's `retryAfterMs` (the provider's `Retry-After`) when it has one, else
 * exponential backoff with full jitter; both are capped by `maxDelayMs`. Aborting the signal ends
 * the wait with `LLM_ABORTED`.
 */
export async function withRetry<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const { maxRetries = 2, baseDelayMs = 500, maxDelayMs = 30_000, signal, provider } = options;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? abortableSleep;
  for (let attemptNumber = 1; ; attemptNumber++) {
    if (signal?.aborted) throw abortedError(signal);
    try {
      return await attempt(attemptNumber);
    } catch (thrown) {
      const error =
        provider === undefined || CairnError.is(thrown)
          ? thrown
          : classifyError(thrown, { provider, signal });
      if (!CairnError.is(error) || !error.retryable || attemptNumber > maxRetries) throw error;
      const delayMs =
        error.retryAfterMs !== undefined
          ? Math.min(error.retryAfterMs, maxDelayMs)
          : Math.floor(random() * Math.min(maxDelayMs, baseDelayMs * 2 ** (attemptNumber - 1)));
      options.onRetry?.({ error, retry: attemptNumber, delayMs });
      await sleep(delayMs, signal);
    }
  }
}
