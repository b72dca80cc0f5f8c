import { createGate, simulatedDelay } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { heldFileLocks, withFileLock } from './file-lock.js';

const never = new AbortController().signal;

describe('withFileLock', () => {
  it('runs the holders of one key one after the other, in order', async () => {
    const log: string[] = [];
    const hold = (name: string, ms: number) =>
      withFileLock('/w/a.txt', never, async () => {
        log.push(`${name} start`);
        await simulatedDelay(ms);
        log.push(`${name} end`);
        return name;
      });
    expect(await Promise.all([hold('one', 30), hold('two', 1), hold('three', 1)])).toEqual([
      'one',
      'two',
      'three',
    ]);
    expect(log).toEqual(['one start', 'one end', 'two start', 'two end', 'three start', 'three end']);
    expect(heldFileLocks()).toBe(0);
  });

  it('runs different keys in parallel, and goes on after a holder throws', async () => {
    const log: string[] = [];
    // The holder of a.txt finishes only once b.txt's has run: a deadlock if keys did not run in parallel.
    const otherRan = createGate();
    const slow = withFileLock('/w/a.txt', never, async () => {
      await otherRan.promise;
      log.push('a');
      throw new Error('failed');
    });
    const other = withFileLock('/w/b.txt', never, async () => {
      log.push('b');
      otherRan.open();
    });
    const next = withFileLock('/w/a.txt', never, async () => log.push('a again'));
    await expect(slow).rejects.toThrow('failed');
    await Promise.all([other, next]);
    expect(log).toEqual(['b', 'a', 'a again']);
    expect(heldFileLocks()).toBe(0);
  });

  it('stops waiting when the call is aborted, and never runs it', async () => {
    const controller = new AbortController();
    let ran = false;
    const release = createGate();
    const holder = withFileLock('/w/a.txt', never, () => release.promise);
    const waiter = withFileLock('/w/a.txt', controller.signal, async () => {
      ran = true;
    });
    const after = withFileLock('/w/a.txt', never, async () => 'after');
    controller.abort(new Error('cancelled'));
    await expect(waiter).rejects.toThrow('cancelled');
    release.open();
    expect(await after).toBe('after');
    await holder;
    expect(ran).toBe(false);
    expect(heldFileLocks()).toBe(0);
  });
});
