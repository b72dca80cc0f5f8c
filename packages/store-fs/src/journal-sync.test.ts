import { closeSync, openSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JournalSync } from './journal-sync.js';

// The journal's sync loop in its thread: the syncs below pause before syncing (time passing is the
// point: records are written while a sync is in flight), and the main thread is held (no event-loop
// turn) to show what the loop does without it.

let dir: string;
let fd: number;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cairn-journal-sync-'));
  fd = openSync(join(dir, 'journal'), 'w+');
});
afterEach(async () => {
  closeSync(fd);
  await rm(dir, { recursive: true, force: true });
});

/** The thread's sync as source: a pause of `ms`, then `then` (source run with the descriptor `fd`). */
const pausedSync = (ms: number, then = 'fdatasyncSync(fd);') =>
  `(fd) => { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${ms}); ${then} }`;

/** Holds the main thread until `done()` (true) or `ms` have passed (false). */
function holdMainThread(done: () => boolean, ms: number): boolean {
  const until = performance.now() + ms;
  while (!done()) if (performance.now() > until) return false;
  return true;
}

/** A record written to the journal file: its ticket. */
const write = (sync: JournalSync) => {
  writeSync(fd, 'record');
  return sync.written();
};

const settled = <T>(promise: Promise<T>) =>
  promise.then(
    () => 'resolved',
    (error: Error) => error.message,
  );

const started = { timeout: 10_000, interval: 2 };

describe('the journal sync loop', () => {
  it('starts the next sync as the last returns, without the main thread; records written during a sync share the next', async () => {
    const sync = new JournalSync({ syncCall: pausedSync(200), rewrite: () => undefined });
    try {
      sync.open(fd);
      const first = sync.durable(write(sync));
      await expect.poll(() => sync.syncsStarted, started).toBe(1);
      // Written while the first sync is in flight.
      const rest = [write(sync), write(sync), write(sync)];
      const durable = rest.map((ticket) => sync.durable(ticket));
      expect(sync.synced).toBe(0);
      // With the event loop held, the first sync's end starts the next, and that one covers all three.
      expect(holdMainThread(() => sync.synced === rest[2], 5_000)).toBe(true);
      expect(sync.syncsStarted).toBe(2);
      await Promise.all([first, ...durable]);
      expect(sync.syncsStarted).toBe(2);
      // Nothing wanted: it sleeps.
      await expect.poll(() => sync.sleeping, started).toBe(true);
    } finally {
      await sync.close();
    }
  });

  it('settles a wait its sync completed at the next record written, before the loop wakes the event loop', async () => {
    const sync = new JournalSync({ rewrite: () => undefined });
    try {
      sync.open(fd);
      const ticket = write(sync);
      let state = 'waiting';
      void sync.durable(ticket).then(() => {
        state = 'resolved';
      });
      // The sync completes while the event loop is held: its wake-up task cannot run.
      expect(holdMainThread(() => sync.synced === ticket, 5_000)).toBe(true);
      write(sync);
      // Microtasks only: no event-loop turn between the record written and the check.
      for (let turn = 0; turn < 5; turn++) await null;
      expect(state).toBe('resolved');
    } finally {
      await sync.close();
    }
  });

  it('a failed sync rejects exactly the appends it covered; their records are written again before the next sync, which acknowledges the later ones', async () => {
    const rewrites: { file: number; synced: number; syncsStarted: number }[] = [];
    const sync: JournalSync = new JournalSync({
      // The second sync fails.
      syncCall: pausedSync(
        100,
        `globalThis.syncs = (globalThis.syncs ?? 0) + 1;
         if (globalThis.syncs === 2) throw Object.assign(new Error('EIO'), { errno: -5 });
         fdatasyncSync(fd);`,
      ),
      rewrite: (file, synced) => rewrites.push({ file, synced, syncsStarted: sync.syncsStarted }),
    });
    try {
      sync.open(fd);
      const first = write(sync);
      await sync.durable(first);
      const covered = [write(sync), write(sync)];
      const failing = covered.map((ticket) => settled(sync.durable(ticket)));
      await expect.poll(() => sync.syncsStarted, started).toBe(2);
      const later = write(sync);
      const laterDurable = settled(sync.durable(later));
      expect(await Promise.all(failing)).toEqual(['EIO: fdatasync failed', 'EIO: fdatasync failed']);
      expect(await laterDurable).toBe('resolved');
      // Written again after the failure, before the third sync began: that sync covers them too.
      expect(rewrites).toEqual([{ file: 0, synced: first, syncsStarted: 2 }]);
      expect(sync.syncsStarted).toBe(3);
      expect(sync.synced).toBe(later);
    } finally {
      await sync.close();
    }
  });

  it('records that cannot be written again fail every wait, until a later try succeeds', async () => {
    let failRewrites = true;
    const sync = new JournalSync({
      syncCall: pausedSync(
        50,
        `globalThis.syncs = (globalThis.syncs ?? 0) + 1;
         if (globalThis.syncs === 1) throw Object.assign(new Error('EIO'), { errno: -5 });
         fdatasyncSync(fd);`,
      ),
      rewrite: () => {
        if (failRewrites) throw new Error('EIO: write');
      },
    });
    try {
      sync.open(fd);
      const covered = settled(sync.durable(write(sync)));
      await expect.poll(() => sync.syncsStarted, started).toBe(1);
      const meanwhile = settled(sync.durable(write(sync)));
      expect(await covered).toBe('EIO: fdatasync failed');
      expect(await meanwhile).toMatch(/cannot be written again/);
      expect(await settled(sync.durable(write(sync)))).toMatch(/cannot be written again/);
      expect(sync.syncsStarted).toBe(1);
      failRewrites = false;
      const after = write(sync);
      expect(await settled(sync.durable(after))).toBe('resolved');
      expect(sync.synced).toBe(after);
    } finally {
      await sync.close();
    }
  });

  it("syncs a full file's last records before any of the next file's, and tells when it has left it", async () => {
    const next = openSync(join(dir, 'next'), 'w+');
    const sync = new JournalSync({ syncCall: pausedSync(100), rewrite: () => undefined });
    try {
      const file = sync.open(fd);
      // Not waited for (durability 'turn' mid-turn), then the file is full.
      const unwaited = write(sync);
      sync.open(next);
      const left = settled(sync.finished(file));
      writeSync(next, 'record');
      const end = sync.written();
      await sync.durable(end);
      expect(await left).toBe('resolved');
      // One sync for the full file (up to its end), one for the next.
      expect(sync.syncsStarted).toBe(2);
      expect(sync.synced).toBe(end);
      expect(unwaited).toBeLessThan(end);
    } finally {
      await sync.close();
      closeSync(next);
    }
  });
});
