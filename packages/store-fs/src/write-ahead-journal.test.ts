import { readdirSync, readlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { userMessage } from '@cairn/storage/testkit';
import { createGate, type Gate, simulatedDelay } from '@cairn/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileSyncer } from './file-syncer.js';
import { FsConversationStore } from './fs-conversation-store.js';
import type { FsDurability } from './fs-store-options.js';

// The journal in small files (4 KiB): full ones are retired (their logs synced, then deleted) while
// appends go on in the next, and a sync waits for the retirement of the files before its own.

let rootDir: string;
beforeEach(async () => {
  rootDir = await mkdtemp(join(tmpdir(), 'cairn-fs-wal-'));
});
afterEach(async () => {
  await rm(rootDir, { recursive: true, force: true });
});

const journalDir = () => join(rootDir, 'projects', 'default', 'journal');
const logFile = (id: string) => join(rootDir, 'projects', 'default', 'conversations', id, 'messages.jsonl');
const wals = () => readdirSync(journalDir()).filter((name) => name.endsWith('.wal'));
const pathOf = (fd: number) => readlinkSync(`/proc/self/fd/${fd}`);

/** Syncs that complete at once, except a log's while `holdLogs` (released by `releaseLogs`). */
function recordingSyncer() {
  const paths: string[] = [];
  let held: Gate | undefined;
  const syncer: FileSyncer = {
    async sync(fd) {
      const path = pathOf(fd);
      paths.push(path);
      if (held !== undefined && path.endsWith('messages.jsonl')) await held.promise;
    },
    async close() {},
  };
  return {
    syncer,
    paths,
    holdLogs() {
      held = createGate();
    },
    releaseLogs() {
      held?.open();
      held = undefined;
    },
  };
}

const openStore = (syncer: FileSyncer, durability: FsDurability = 'append') =>
  new FsConversationStore({ rootDir, durability }, { syncer, journalSegmentBytes: 4096 });

describe('the write-ahead journal', () => {
  it('retires full files: their logs synced, then the file deleted; appends go on in the next', async () => {
    const sync = recordingSyncer();
    const store = openStore(sync.syncer);
    for (let index = 0; index < 30; index++) {
      const id = `c${index % 3}`;
      await store.append(id, [userMessage(`m${index}`, `message ${index} ${'y'.repeat(600)}`)]);
    }
    const journals = new Set(sync.paths.filter((path) => path.endsWith('.wal')));
    // 30 records of ~800 bytes in 4 KiB files: several files, most already retired.
    expect(journals.size).toBeGreaterThan(3);
    await expect.poll(() => wals().length).toBeLessThanOrEqual(2);
    for (const id of ['c0', 'c1', 'c2']) expect(sync.paths).toContain(logFile(id));
    await store.close();
    expect(wals()).toEqual([]);
    const reopened = openStore(sync.syncer);
    expect((await reopened.load('c1')).map((message) => message.id)).toEqual(
      Array.from({ length: 10 }, (_, index) => `m${index * 3 + 1}`),
    );
    await reopened.close();
  });

  it("a turn's end in a new file waits until the logs of the older file are synced ('turn')", async () => {
    const sync = recordingSyncer();
    const store = openStore(sync.syncer, 'turn');
    await store.append('c1', [userMessage('u0', 'start')]);
    sync.holdLogs();
    // Unsynced appends of the turn fill the first file; the file after it gets the turn's end.
    const firstFile = sync.paths.find((path) => path.endsWith('.wal'));
    for (let index = 1; index < 12; index++) {
      await store.append('c1', [userMessage(`u${index}`, 'z'.repeat(600))]);
    }
    // The first file's retirement is under way: its log's sync is held.
    await expect.poll(() => sync.paths.filter((path) => path.endsWith('messages.jsonl')).length).toBe(1);
    let ended = false;
    const end = store
      .append('c1', [{ id: 'a1', role: 'assistant', content: 'done', createdAt: new Date().toISOString() }])
      .then(() => {
        ended = true;
      });
    // Its own journal sync alone would be done at once: time passing is the point.
    await simulatedDelay(30);
    expect(firstFile).toBeDefined();
    expect(ended).toBe(false);
    sync.releaseLogs();
    await end;
    await store.close();
  });
});
