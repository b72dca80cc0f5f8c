import { execFile } from 'node:child_process';
import { closeSync, lstatSync, openSync, readdirSync, readFileSync, readlinkSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CairnError } from '@cairn/core';
import { assistantText, userMessage } from '@cairn/storage/testkit';
import { createGate, type Gate, simulatedDelay } from '@cairn/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileSyncer } from './file-syncer.js';
import { FsConversationStore } from './fs-conversation-store.js';
import type { FsConversationStoreOptions } from './fs-store-options.js';
import { decodeJournal } from './journal-record.js';
import { SharedSyncQueue } from './shared-sync-queue.js';

// Durable appends: written under the lock to their log, journaled, then synced off the event loop:
// one sync of the process's journal for every append written before it, whichever conversation.
// A syncer the test controls shows which sync covers which append, and that none resolves before
// its sync has completed.

let rootDir: string;
beforeEach(async () => {
  rootDir = await mkdtemp(join(tmpdir(), 'cairn-fs-durable-'));
});
afterEach(async () => {
  await rm(rootDir, { recursive: true, force: true });
});

const conversationDir = (id: string) => join(rootDir, 'projects', 'default', 'conversations', id);
const logFile = (id: string) => join(conversationDir(id), 'messages.jsonl');
const journalDir = () => join(rootDir, 'projects', 'default', 'journal');
/** What a descriptor is open on (Linux). */
const pathOf = (fd: number) => readlinkSync(`/proc/self/fd/${fd}`);
const isJournal = (path: string) => path.endsWith('.wal');

/** A syncer whose syncs complete when the test says so (or at once, while `auto`). */
function controlledSyncer() {
  const calls: (Gate & { fd: number; path: string })[] = [];
  let auto = false;
  let closed = 0;
  const syncer: FileSyncer = {
    sync(fd) {
      const gate = { ...createGate(), fd, path: pathOf(fd) };
      calls.push(gate);
      if (auto) gate.open();
      return gate.promise;
    },
    async close() {
      closed++;
    },
  };
  return {
    syncer,
    calls,
    closed: () => closed,
    autoComplete() {
      auto = true;
      for (const call of calls) call.open();
    },
    /** From now on each sync waits for the test. */
    hold() {
      auto = false;
    },
  };
}

function openStore(syncer: FileSyncer, options: Partial<FsConversationStoreOptions> = {}) {
  return new FsConversationStore({ rootDir, durability: 'append', ...options }, { syncer });
}

/** Tracks whether a promise has settled, without awaiting it. */
function track<T>(promise: Promise<T>) {
  const state = { settled: false, promise };
  promise.then(
    () => (state.settled = true),
    () => (state.settled = true),
  );
  return state;
}

/** A store whose journal file and the logs of `ids` exist (their first message in), syncs held from then on. */
async function warmStore(options: Partial<FsConversationStoreOptions> = {}, ids = ['c1', 'c2']) {
  const sync = controlledSyncer();
  const store = openStore(sync.syncer, options);
  sync.autoComplete();
  for (const id of ids) await store.append(id, [userMessage(`${id}-m0`, 'first')]);
  sync.hold();
  return { sync, store, before: sync.calls.length };
}

describe('durable appends', () => {
  it('share one journal sync across conversations: the appends written while a sync is in flight wait for the next one, and none resolves before its sync completes', async () => {
    const { sync, store, before } = await warmStore();
    const first = track(store.append('c1', [userMessage('m1', 'first')]));
    await expect.poll(() => sync.calls.length).toBe(before + 1);
    expect(isJournal(sync.calls[before]?.path ?? '')).toBe(true);

    // Ten more, to two conversations, written (to the page cache) while that sync is in flight...
    const rest = Array.from({ length: 10 }, (_, index) =>
      track(store.append(index % 2 === 0 ? 'c1' : 'c2', [userMessage(`n${index}`, 'more')])),
    );
    await expect
      .poll(
        () =>
          readFileSync(logFile('c1'), 'utf8').includes('"n8"') &&
          readFileSync(logFile('c2'), 'utf8').includes('"n9"'),
      )
      .toBe(true);
    expect(sync.calls).toHaveLength(before + 1);
    expect([first, ...rest].some((append) => append.settled)).toBe(false);

    // ...and when it completes, one sync of the journal starts for all ten of them.
    sync.calls[before]?.open();
    await first.promise;
    await expect.poll(() => sync.calls.length).toBe(before + 2);
    expect(sync.calls[before + 1]?.path).toBe(sync.calls[before]?.path);
    expect(rest.some((append) => append.settled)).toBe(false);
    sync.calls[before + 1]?.open();
    const results = await Promise.all(rest.map((append) => append.promise));
    expect(results.map((result) => result.seqs[0])).toEqual([3, 2, 4, 3, 5, 4, 6, 5, 7, 6]);
    expect(sync.calls).toHaveLength(before + 2);
    sync.autoComplete();
    await store.close();
  });

  it("durability 'turn' syncs at the end of a turn only, and the turn end waits for it", async () => {
    const { sync, store, before } = await warmStore({ durability: 'turn' }, ['c1']);
    await store.append('c1', [userMessage('u2', 'another')]);
    expect(sync.calls).toHaveLength(before);

    const answer = track(
      store.append('c1', [
        { id: 'a1', role: 'assistant', content: 'answer', createdAt: new Date().toISOString() },
      ]),
    );
    await expect.poll(() => sync.calls.length).toBe(before + 1);
    expect(isJournal(sync.calls[before]?.path ?? '')).toBe(true);
    expect(answer.settled).toBe(false);
    sync.calls[before]?.open();
    expect((await answer.promise).seqs).toEqual([3]);
    sync.autoComplete();
    await store.close();
  });

  it('a failed sync rejects every append it covered with a retryable STORE_UNAVAILABLE, and the store stays correct', async () => {
    const { sync, store, before } = await warmStore({}, ['c1']);
    const first = track(store.append('c1', [userMessage('m1', 'first')], { idempotencyKey: 'k1' }));
    await expect.poll(() => sync.calls.length).toBe(before + 1);
    const covered = [2, 3, 4].map((index) =>
      track(store.append('c1', [userMessage(`m${index}`, 'x')], { idempotencyKey: `k${index}` })),
    );
    await expect.poll(() => readFileSync(logFile('c1'), 'utf8').includes('"m4"')).toBe(true);
    sync.calls[before]?.open();
    await first.promise;
    await expect.poll(() => sync.calls.length).toBe(before + 2);
    sync.calls[before + 1]?.fail(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    for (const append of covered) {
      const error = await append.promise.then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(CairnError.is(error, 'STORE_UNAVAILABLE')).toBe(true);
      expect((error as CairnError).retryable).toBe(true);
    }

    // Later appends work; a retry with the same key finds what reached the log and adds no copy.
    sync.autoComplete();
    expect((await store.append('c1', [userMessage('m5', 'after')])).seqs).toEqual([6]);
    expect((await store.append('c1', [userMessage('m3', 'x')], { idempotencyKey: 'k3' })).seqs).toEqual([4]);
    expect((await store.load('c1')).map((message) => message.id)).toEqual([
      'c1-m0',
      'm1',
      'm2',
      'm3',
      'm4',
      'm5',
    ]);
    await store.close();
  });

  it('after a failed sync, the records it covered are in the journal again before a later sync acknowledges anything (their pages may have been dropped)', async () => {
    const { sync, store, before } = await warmStore({}, ['c1']);
    const [journal = ''] = readdirSync(journalDir()).filter(isJournal);
    const journalFile = join(journalDir(), journal);
    const journaled = () => decodeJournal(readFileSync(journalFile)).map((record) => record.bytes.toString());
    const first = track(store.append('c1', [userMessage('m1', 'first')]));
    await expect.poll(() => sync.calls.length).toBe(before + 1);
    sync.calls[before]?.open();
    await first.promise;
    // Where the synced records end: the failed sync's pages come after.
    const syncedEnd = decodeJournal(readFileSync(journalFile)).reduce(
      (end, record) => end + 12 + 2 + Buffer.byteLength(record.conversationId) + 24 + record.bytes.length,
      0,
    );
    const failed = track(store.append('c1', [userMessage('m2', 'lost')]));
    await expect.poll(() => sync.calls.length).toBe(before + 2);
    // The disk never got them: the kernel drops the pages with the error, the file reads as on disk.
    const fd = openSync(journalFile, 'r+');
    writeSync(fd, Buffer.alloc(64 * 1024), 0, 64 * 1024, syncedEnd);
    closeSync(fd);
    sync.calls[before + 1]?.fail(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    await failed.promise.catch(() => undefined);
    sync.autoComplete();
    await store.append('c1', [userMessage('m3', 'later')]);
    // Acknowledged: a power cut now must find it, so the records before it in the journal are whole.
    const records = journaled();
    expect(records.some((bytes) => bytes.includes('"m3"'))).toBe(true);
    expect(records.some((bytes) => bytes.includes('"m2"'))).toBe(true);
    await store.close();
  });

  it('close() waits for the syncs in flight, syncs the logs, deletes the journal and closes the syncer', async () => {
    const { sync, store, before } = await warmStore({}, ['c1']);
    const append = track(store.append('c1', [userMessage('m1', 'x')]));
    await expect.poll(() => sync.calls.length).toBe(before + 1);
    const closing = track(store.close());
    // Time passing is the point: close() must still be waiting for the held sync.
    await simulatedDelay(20);
    expect(closing.settled).toBe(false);
    expect(sync.closed()).toBe(0);
    sync.autoComplete();
    await closing.promise;
    expect(append.settled).toBe(true);
    expect(sync.closed()).toBe(1);
    // The log itself was synced before its journal went.
    expect(sync.calls.slice(before + 1).map((call) => call.path)).toContain(logFile('c1'));
    expect(readdirSync(journalDir()).filter(isJournal)).toEqual([]);
  });
});

describe('the sync threads', () => {
  it('make written bytes durable off the event loop, start on demand and are all gone after close()', async () => {
    const pool = new SharedSyncQueue(3);
    expect(pool.threads).toBe(0);
    const fds = [0, 1, 2, 3, 4].map((index) => openSync(join(rootDir, `f${index}`), 'w'));
    try {
      for (const fd of fds) writeSync(fd, 'bytes');
      await Promise.all(fds.map((fd) => pool.sync(fd)));
      expect(pool.threads).toBeGreaterThan(0);
      expect(pool.threads).toBeLessThanOrEqual(3);
      // A bad descriptor fails its sync, not the pool.
      await expect(pool.sync(1 << 20)).rejects.toMatchObject({ code: 'EBADF' });
      await pool.sync(fds[0] ?? 0);
      await pool.close();
      expect(pool.threads).toBe(0);
      await expect(pool.sync(fds[0] ?? 0)).rejects.toThrow(/closed/);
    } finally {
      for (const fd of fds) closeSync(fd);
    }
  });

  it('a store with its own pool leaves no thread behind after close()', async () => {
    const pool = new SharedSyncQueue();
    const store = openStore(pool);
    await Promise.all(
      Array.from({ length: 8 }, (_, index) => store.append(`c${index}`, [userMessage(`m${index}`, 'x')])),
    );
    expect(pool.threads).toBeGreaterThan(0);
    await store.close();
    expect(pool.threads).toBe(0);
  });
});

describe('settleDurableWrites', () => {
  it("ends an append's wait as soon as its sync thread is done, without the event loop turning", async () => {
    const store = new FsConversationStore({ rootDir });
    try {
      // The journal made and the lock leased: the next append reaches its sync without file work on the pool.
      await store.append('c', [userMessage('u1', 'hi'), assistantText('a1', 'hello')]);
      let settled = false;
      void store.append('c', [userMessage('u2', 'and?'), assistantText('a2', 'more')]).then(() => {
        settled = true;
      });
      // Only promise jobs and blocking waits from here: no timer, no I/O callback, no wake-up task runs.
      const block = new Int32Array(new SharedArrayBuffer(4));
      for (let round = 0; round < 500 && !settled; round++) {
        for (let job = 0; job < 20; job++) await Promise.resolve();
        Atomics.wait(block, 0, 0, 10);
        store.settleDurableWrites();
      }
      expect(settled).toBe(true);
    } finally {
      await store.close();
    }
  });
});

describe('the shared-memory sync queue', () => {
  it('a thread that dies in the middle of a sync fails that sync; the others complete', async () => {
    // Descriptor 1,000,000 makes the thread exit instead of syncing; others sync after a pause, so
    // some are still queued or running when it dies.
    const pool = new SharedSyncQueue(
      2,
      `(fd) => { if (fd === 1000000) process.exit(1); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20); fdatasyncSync(fd); }`,
    );
    const fd = openSync(join(rootDir, 'f'), 'w');
    try {
      writeSync(fd, 'bytes');
      const before = [pool.sync(fd), pool.sync(fd)];
      const dying = pool.sync(1_000_000);
      const after = [pool.sync(fd), pool.sync(fd), pool.sync(fd)];
      await expect(dying).rejects.toThrow(/exited/);
      await Promise.all([...before, ...after]);
      // A new thread takes over: later syncs still complete.
      await pool.sync(fd);
      await pool.close();
      expect(pool.threads).toBe(0);
    } finally {
      closeSync(fd);
    }
  });

  it('more syncs at once than it has slots all complete, each after its own fdatasync', async () => {
    let runs = 0;
    const pool = new SharedSyncQueue(4);
    const fds = Array.from({ length: 8 }, (_, index) => openSync(join(rootDir, `g${index}`), 'w'));
    try {
      // 600 syncs (the ring has 256 slots): the rest wait on the main thread for a free slot.
      await Promise.all(
        Array.from({ length: 600 }, (_, index) => pool.sync(fds[index % fds.length] ?? 0).then(() => runs++)),
      );
      expect(runs).toBe(600);
      const errors = await Promise.allSettled(Array.from({ length: 300 }, () => pool.sync(1 << 20)));
      expect(errors.every((result) => result.status === 'rejected' && result.reason.code === 'EBADF')).toBe(
        true,
      );
      await pool.close();
      expect(pool.threads).toBe(0);
    } finally {
      for (const fd of fds) closeSync(fd);
    }
  });

  it('close() waits for the syncs submitted before it, then rejects new ones', async () => {
    const pool = new SharedSyncQueue(
      1,
      `(fd) => { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30); fdatasyncSync(fd); }`,
    );
    const fd = openSync(join(rootDir, 'h'), 'w');
    try {
      const syncs = [track(pool.sync(fd)), track(pool.sync(fd))];
      await pool.close();
      expect(syncs.every((sync) => sync.settled)).toBe(true);
      await Promise.all(syncs.map((sync) => sync.promise));
      await expect(pool.sync(fd)).rejects.toThrow(/closed/);
      expect(pool.threads).toBe(0);
    } finally {
      closeSync(fd);
    }
  });
});

describe('waking the sync threads', () => {
  /** Whether `promise` settles within `ms` (a lost wake-up must fail the test, not hang it). */
  const within = (promise: Promise<unknown>, ms: number) => {
    const deadline = new AbortController();
    // The deadline is the behaviour under test: a round that does not finish in time failed.
    const late = simulatedDelay(ms, deadline.signal).then(
      () => false,
      () => false,
    );
    return Promise.race([promise.then(() => true), late]).finally(() => deadline.abort());
  };
  const spin = (microseconds: number) => {
    const until = performance.now() + microseconds / 1000;
    while (performance.now() < until);
  };

  it('no submission is lost to a thread going to sleep as it arrives (thousands of rounds)', async () => {
    // Syncs that return at once: each round submits as the threads, just done with the last one,
    // are on their way to sleep. The threads pause (0 to 120 µs) between finding the ring empty and
    // sleeping, so that the round's submission and the main thread's look at who sleeps fall into
    // that window, where a wake-up is lost unless the wait compares against the value read before
    // the ring was found empty; the main thread's pause varies where in the path it lands.
    const pool = new SharedSyncQueue(
      2,
      '() => {}',
      'for (const until = performance.now() + (tail % 7) * 0.02; performance.now() < until; );',
    );
    let lost = 0;
    try {
      for (let round = 0; round < 3000 && lost === 0; round++) {
        spin(round % 40);
        const syncs = Array.from({ length: 1 + (round % 3) }, () => pool.sync(0));
        if (!(await within(Promise.all(syncs), 5000))) lost = round + 1;
      }
    } finally {
      // A lost submission waits for a thread that sleeps: a later submission wakes it, so close()
      // can end.
      if (lost > 0) await within(pool.sync(0), 5000);
      await within(pool.close(), 5000);
    }
    expect(lost).toBe(0);
  });

  it('the main thread wakes one thread per tick; that thread wakes its peers while more wait', async () => {
    // Each sync writes the id of the thread that ran it, after a pause so that one thread alone
    // could not take them all at once.
    const pool = new SharedSyncQueue(
      4,
      `(fd) => { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20); process.getBuiltinModule('node:fs').writeSync(fd, threadId + '\\n'); }`,
    );
    const file = join(rootDir, 'ids');
    const fd = openSync(file, 'a');
    try {
      await Promise.all(Array.from({ length: 8 }, () => pool.sync(fd)));
      expect(pool.threads).toBe(4);
      await expect.poll(() => pool.sleeping, { timeout: 5_000 }).toBe(4);
      closeSync(openSync(file, 'w'));
      const before = { ...pool.wakeUps };
      await Promise.all(Array.from({ length: 16 }, () => pool.sync(fd)));
      expect(pool.wakeUps.ticks - before.ticks).toBe(1);
      expect(pool.wakeUps.notified - before.notified).toBe(1);
      const ids = readFileSync(file, 'utf8').trim().split('\n');
      expect(ids).toHaveLength(16);
      expect(new Set(ids).size).toBeGreaterThan(1);
      await pool.close();
    } finally {
      closeSync(fd);
    }
  });
});

describe('the lock lease', () => {
  const lockExists = (id: string) => {
    try {
      lstatSync(join(conversationDir(id), 'lock'));
      return true;
    } catch {
      return false;
    }
  };

  it('an idle holder gives its lease to a waiting process at once (long before the lease would end)', async () => {
    const pool = new SharedSyncQueue();
    // The lease would last a third of lockStaleMs (40 s); the other process gives up after 3 s.
    const store = openStore(pool, { lockStaleMs: 120_000 });
    await store.append('c1', [userMessage('m1', 'mine')]);
    expect(lockExists('c1')).toBe(true);
    const script = `import { createFsConversationStore } from '@cairn/store-fs';
      const store = createFsConversationStore({ rootDir: process.argv[1], lockTimeoutMs: 3000 });
      const { seqs } = await store.append('c1', [{ id: 'theirs', role: 'user', content: 'hi', createdAt: new Date().toISOString() }]);
      await store.close();
      console.log(JSON.stringify(seqs));`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', script, rootDir],
      { cwd: new URL('..', import.meta.url) },
    );
    expect(JSON.parse(stdout)).toEqual([2]);
    // The holder takes the lock again and sees the other process's append.
    expect((await store.append('c1', [userMessage('m3', 'mine again')])).seqs).toEqual([3]);
    expect((await store.load('c1')).map((message) => message.id)).toEqual(['m1', 'theirs', 'm3']);
    await store.close();
    expect(lockExists('c1')).toBe(false);
  });
});
