import { lstatSync, readdirSync, readlinkSync, symlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simulatedDelay } from '@cairn/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLock } from './conversation-lock.js';
import { LockLeases } from './lock-leases.js';

// A short stale age: a lease ticks every 100 ms and is taken again past 133 ms without a new stamp.
const options = { staleMs: 400, timeoutMs: 5_000 };

let dir: string;
let lock: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cairn-lock-leases-'));
  lock = join(dir, 'lock');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const stamp = () => Number(readlinkSync(lock).split(' ')[2]);
// The lock is a symbolic link to nowhere (its target names the owner): existsSync would follow it.
const locked = () => lstatSync(lock, { throwIfNoEntry: false }) !== undefined;

describe('a lock lease', () => {
  it('in use is stamped afresh without being let go: the lock never disappears and the cached state stays valid', async () => {
    const leases = new LockLeases(options);
    try {
      const continued: boolean[] = [];
      const stamps = new Set<number>();
      let missing = 0;
      // Used every 10 ms (a busy conversation) for five stale ages' worth of ticks.
      for (let run = 0; stamps.size < 6 && run < 1_000; run++) {
        continued.push(await leases.run(lock, async (held) => held));
        if (locked()) stamps.add(stamp());
        else missing++;
        await simulatedDelay(10);
      }
      expect(stamps.size).toBe(6);
      expect(missing).toBe(0);
      // Taken once; every later run continued the same hold.
      expect(continued.slice(1).every(Boolean)).toBe(true);
      expect(continued[0]).toBe(false);
      expect(readdirSync(dir).sort()).toEqual(['lock']);
    } finally {
      leases.releaseAll();
    }
  });

  it('is not stamped afresh when the process was held past half the stale age: it is let go', async () => {
    const leases = new LockLeases(options);
    try {
      await leases.run(lock, async () => undefined);
      const owner = readlinkSync(lock);
      // The event loop held (a paused process) well past staleMs / 2 while the lease was in use.
      const until = performance.now() + 250;
      while (performance.now() < until);
      const owners = new Set<string>();
      await expect
        .poll(
          () => {
            if (locked()) owners.add(readlinkSync(lock));
            return locked();
          },
          { timeout: 5_000, interval: 1 },
        )
        .toBe(false);
      expect([...owners]).toEqual([owner]);
    } finally {
      leases.releaseAll();
    }
  });

  it('not used for a tick is given up', async () => {
    const leases = new LockLeases(options);
    try {
      await leases.run(lock, async () => undefined);
      expect(locked()).toBe(true);
      await expect.poll(() => locked(), { timeout: 5_000, interval: 5 }).toBe(false);
      expect(leases.size).toBe(0);
    } finally {
      leases.releaseAll();
    }
  });
});

describe('HeldLock.renew', () => {
  it('replaces the owner stamp in place, and a release meanwhile removes the lock only after it', async () => {
    const held = await acquireLock(lock, options);
    const first = readlinkSync(lock);
    await held.renew();
    const second = readlinkSync(lock);
    expect(second).not.toBe(first);
    expect(held.acquiredAt).toBe(Number(second.split(' ')[2]));
    const renewal = held.renew();
    held.release();
    // Still there until the new stamp is in place: removing it first would let the rename put it back
    // over a lock another process took in between.
    expect(lstatSync(lock).isSymbolicLink()).toBe(true);
    await renewal;
    expect(readdirSync(dir)).toEqual([]);
  });

  it('clears what a renewal that died halfway left beside the lock', async () => {
    const held = await acquireLock(lock, options);
    symlinkSync('someone 1 1 left-over', `${lock}.renew`);
    await held.renew();
    expect(readdirSync(dir)).toEqual(['lock']);
    expect(readlinkSync(lock)).not.toContain('left-over');
    held.release();
    expect(readdirSync(dir)).toEqual([]);
  });
});
