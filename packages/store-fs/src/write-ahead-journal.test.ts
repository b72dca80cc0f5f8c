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

/** Syncs that complete at once, recorded by path. */
function recordingSyncer() {
  const paths: string[] = [];
  const syncer: FileSyncer = {
    async sync(fd) {
      paths.push(pathOf(fd));
    },
    async close() {},
  };
  return { syncer, paths };
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

  it("a turn's end in a new file waits for the older file's last sync, not for its logs ('turn')", async () => {
    let heldJournal: Gate | undefined;
    let heldLogs: Gate | undefined;
    let firstFile: string | undefined;
    const paths: string[] = [];
    const syncer: FileSyncer = {
      async sync(fd) {
        const path = pathOf(fd);
        paths.push(path);
        if (path.endsWith('.wal')) firstFile ??= path;
        // The first file's syncs wait while held, and so do the logs'.
        if (path === firstFile && heldJournal !== undefined) await heldJournal.promise;
        if (path.endsWith('messages.jsonl') && heldLogs !== undefined) await heldLogs.promise;
      },
      async close() {},
    };
    const store = openStore(syncer, 'turn');
    await store.append('c1', [userMessage('u0', 'start')]);
    heldJournal = createGate();
    heldLogs = createGate();
    // Unsynced appends of the turn fill the first file; the file after it gets the turn's end.
    for (let index = 1; index < 12; index++) {
      await store.append('c1', [userMessage(`u${index}`, 'z'.repeat(600))]);
    }
    let ended = false;
    const end = store
      .append('c1', [{ id: 'a1', role: 'assistant', content: 'done', createdAt: new Date().toISOString() }])
      .then(() => {
        ended = true;
      });
    // The first file's last sync is held: time passing is the point.
    await simulatedDelay(30);
    expect(paths.filter((path) => path === firstFile).length).toBeGreaterThan(1);
    expect(ended).toBe(false);
    // Its last sync done, the turn's end is durable, though the first file's logs still wait.
    heldJournal.open();
    heldJournal = undefined;
    await end;
    expect(ended).toBe(true);
    heldLogs.open();
    heldLogs = undefined;
    await store.close();
  });
});
