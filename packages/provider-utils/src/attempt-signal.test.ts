import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createAttemptSignal } from './attempt-signal.js';

describe('createAttemptSignal', () => {
  it('follows the caller’s signal without leaving listeners on it once an attempt’s signal is dropped', () => {
    const caller = new AbortController();
    const attempts = Array.from({ length: 20 }, () => createAttemptSignal(caller.signal));
    // What an SDK does with the signal it is given: a listener it never removes.
    for (const attempt of attempts) attempt.signal?.addEventListener('abort', () => undefined);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    caller.abort();
    expect(attempts.every((attempt) => attempt.signal?.aborted)).toBe(true);
    expect(attempts[0]?.timedOut()).toBe(false);
  });

  it('ends an attempt at its time limit and says so', async () => {
    const attempt = createAttemptSignal(undefined, 20);
    await new Promise((resolve) => attempt.signal?.addEventListener('abort', resolve));
    expect(attempt.timedOut()).toBe(true);
  });

  it('is no signal at all when there is neither a caller signal nor a limit', () => {
    expect(createAttemptSignal(undefined).signal).toBeUndefined();
  });
});
