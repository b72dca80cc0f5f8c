import { describe, expect, it } from 'vitest';
import { createGate } from './gate.js';
import { simulatedDelay } from './simulated-delay.js';

describe('createGate', () => {
  it('settles its promise with the value it is opened with, or the reason it fails with', async () => {
    const opened = createGate<number>();
    opened.open(7);
    await expect(opened.promise).resolves.toBe(7);
    const failed = createGate();
    failed.fail(new Error('closed'));
    await expect(failed.promise).rejects.toThrow('closed');
  });
});

describe('simulatedDelay', () => {
  it('resolves after the delay, and rejects with an AbortError once its signal fires', async () => {
    await expect(simulatedDelay(1)).resolves.toBeUndefined();
    const controller = new AbortController();
    const waiting = simulatedDelay(60_000, controller.signal);
    controller.abort(new Error('stopped'));
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
  });
});
