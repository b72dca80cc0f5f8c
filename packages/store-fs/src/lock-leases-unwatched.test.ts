import { lstatSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LockLeases } from './lock-leases.js';

// No directory can be watched here (out of inotify watches, or a platform without them): a lease
// cannot hear a waiter's marker, so it is given up once no run uses it.
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return {
    ...fs,
    watch: () => {
      throw Object.assign(new Error('no inotify watches left'), { code: 'ENOSPC' });
    },
  };
});

const options = { staleMs: 30_000, timeoutMs: 5_000 };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cairn-lock-unwatched-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const locked = (path: string) => lstatSync(path, { throwIfNoEntry: false }) !== undefined;

describe('a lock lease without a watch on its directory', () => {
  it('is given up as soon as the event loop is idle, and at once when this instance takes another lock', async () => {
    const leases = new LockLeases(options);
    const [a, b, c] = ['a', 'b', 'c'].map((name) => join(dir, name, 'lock')) as [string, string, string];
    try {
      await leases.run(a, async () => undefined);
      await leases.run(b, async (continued) => {
        // Taking b gave a up first: two processes each idly holding what the other waits for would both time out.
        expect(locked(a)).toBe(false);
        expect(continued).toBe(false);
        // A lease in use is never given up from under its run, whatever else is taken meanwhile.
        await leases.run(c, async () => expect(locked(b)).toBe(true));
      });
      expect(locked(b)).toBe(true);
      await vi.waitFor(() => {
        expect(locked(b)).toBe(false);
        expect(locked(c)).toBe(false);
      });
    } finally {
      leases.releaseAll();
    }
  });
});
