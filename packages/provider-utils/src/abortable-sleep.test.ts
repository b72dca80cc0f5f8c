import { CairnError } from '@cairn/core';
import { describe, expect, it, vi } from 'vitest';
import { abortableSleep } from './abortable-sleep.js';

describe('abortableSleep', () => {
  it('waits, then resolves', async () => {
    const started = Date.now();
    await abortableSleep(20);
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
  });

  it('resolves a zero wait before any timer, unless already aborted', async () => {
    // A fake clock: the probe timer cannot fire, and a timer of abortableSleep's own would show in the count.
    vi.useFakeTimers();
    let timerFired = false;
    try {
      setTimeout(() => {
        timerFired = true;
      }, 0);
      const sleeping = abortableSleep(0);
      expect(vi.getTimerCount()).toBe(1);
      await sleeping;
    } finally {
      vi.useRealTimers();
    }
    expect(timerFired).toBe(false);
    const controller = new AbortController();
    controller.abort();
    await expect(abortableSleep(0, controller.signal)).rejects.toSatisfy((error) =>
      CairnError.is(error, 'LLM_ABORTED'),
    );
  });

  it('ends early with LLM_ABORTED when the signal fires', async () => {
    const controller = new AbortController();
    const sleeping = abortableSleep(60_000, controller.signal);
    controller.abort();
    await expect(sleeping).rejects.toSatisfy((error) => CairnError.is(error, 'LLM_ABORTED'));
    await expect(abortableSleep(10, controller.signal)).rejects.toSatisfy((error) =>
      CairnError.is(error, 'LLM_ABORTED'),
    );
  });
});
