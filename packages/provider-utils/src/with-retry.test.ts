import { CairnError } from '@cairn/core';
import { describe, expect, it, vi } from 'vitest';
import { type RetryEvent, withRetry } from './with-retry.js';

const unavailable = () => new CairnError('LLM_UNAVAILABLE', 'down');
const noSleep = async () => undefined;

/** An attempt that fails with the given errors, then returns 'ok'. */
function failing(...errors: unknown[]) {
  const attempt = vi.fn(async (_attemptNumber: number) => {
    const error = errors.shift();
    if (error !== undefined) throw error;
    return 'ok';
  });
  return attempt;
}

describe('withRetry', () => {
  it('retries retryable CairnErrors up to maxRetries', async () => {
    const attempt = failing(unavailable(), unavailable());
    await expect(withRetry(attempt, { sleep: noSleep })).resolves.toBe('ok');
    expect(attempt.mock.calls.map(([n]) => n)).toEqual([1, 2, 3]);

    const exhausted = failing(unavailable(), unavailable(), unavailable());
    await expect(withRetry(exhausted, { sleep: noSleep })).rejects.toMatchObject({ code: 'LLM_UNAVAILABLE' });
    expect(exhausted).toHaveBeenCalledTimes(3);
    const never = failing(unavailable());
    await expect(withRetry(never, { maxRetries: 0, sleep: noSleep })).rejects.toMatchObject({
      code: 'LLM_UNAVAILABLE',
    });
  });

  it('does not retry what is not retryable, nor foreign errors', async () => {
    const auth = failing(new CairnError('LLM_AUTH', 'bad key'));
    await expect(withRetry(auth, { sleep: noSleep })).rejects.toMatchObject({ code: 'LLM_AUTH' });
    expect(auth).toHaveBeenCalledTimes(1);
    const foreign = new TypeError('bug');
    await expect(withRetry(failing(foreign), { sleep: noSleep })).rejects.toBe(foreign);
  });

  it('classifies foreign errors when told the provider', async () => {
    const status = (code: number) => Object.assign(new Error(`${code}`), { status: code });
    const attempt = failing(status(503));
    await expect(withRetry(attempt, { provider: 'openai', sleep: noSleep })).resolves.toBe('ok');
    await expect(
      withRetry(failing(status(401)), { provider: 'openai', sleep: noSleep }),
    ).rejects.toMatchObject({
      code: 'LLM_AUTH',
      details: { status: 401, provider: 'openai' },
    });
  });

  it('waits the retryAfterMs the provider asked for, capped by maxDelayMs', async () => {
    const sleep = vi.fn(async (_ms: number) => undefined);
    const retries: RetryEvent[] = [];
    const limited = (retryAfterMs: number) => new CairnError('LLM_RATE_LIMITED', 'slow', { retryAfterMs });
    await withRetry(failing(limited(1500), limited(90_000)), {
      sleep,
      maxDelayMs: 10_000,
      onRetry: (event) => retries.push(event),
    });
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([1500, 10_000]);
    expect(retries.map(({ retry, delayMs, error }) => [retry, delayMs, error.code])).toEqual([
      [1, 1500, 'LLM_RATE_LIMITED'],
      [2, 10_000, 'LLM_RATE_LIMITED'],
    ]);
  });

  it('backs off exponentially with full jitter', async () => {
    const sleep = vi.fn(async (_ms: number) => undefined);
    const attempt = failing(unavailable(), unavailable(), unavailable(), unavailable());
    await withRetry(attempt, { maxRetries: 4, baseDelayMs: 100, maxDelayMs: 500, random: () => 0.5, sleep });
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([50, 100, 200, 250]);
    const zero = vi.fn(async (_ms: number, _signal?: AbortSignal) => undefined);
    await withRetry(failing(unavailable()), { random: () => 0, sleep: zero });
    expect(zero).toHaveBeenCalledWith(0, undefined);
  });

  it('stops with LLM_ABORTED when aborted while waiting or before an attempt', async () => {
    const controller = new AbortController();
    const attempt = failing(unavailable(), unavailable());
    const running = withRetry(attempt, {
      signal: controller.signal,
      baseDelayMs: 60_000,
      random: () => 0.99,
    });
    await vi.waitFor(() => expect(attempt).toHaveBeenCalledTimes(1));
    controller.abort();
    await expect(running).rejects.toMatchObject({ code: 'LLM_ABORTED' });
    expect(attempt).toHaveBeenCalledTimes(1);
    const never = failing();
    await expect(withRetry(never, { signal: controller.signal })).rejects.toMatchObject({
      code: 'LLM_ABORTED',
    });
    expect(never).not.toHaveBeenCalled();
  });
});
