import { CairnError } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { abortableSleep } from './abortable-sleep.js';

describe('abortableSleep', () => {
  it('waits, then resolves', async () => {
    const started = Date.now();
    await abortableSleep(20);
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
  });

  it('resolves a zero wait before any timer, unless already aborted', async () => {
    let timerFired = false;
    setTimeout(() => {
      timerFired = true;
    }, 0);
    await abortableSleep(0);
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
