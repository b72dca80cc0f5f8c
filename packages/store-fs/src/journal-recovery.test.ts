import { execFile } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { userMessage } from '@cairn/storage/testkit';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FsConversationStore } from './fs-conversation-store.js';
import type { FsDurability } from './fs-store-options.js';
import { isOrphanedJournal, journalFileName } from './journal-owner.js';
import { encodeJournalRecord } from './journal-record.js';
import { recordsEnd } from './log-padding.js';

// A power cut after a journal sync: the journal holds appends the log never got (zeros where it was
// padded, or cut short). The next store to open the directory writes them back, and only them.

let rootDir: string;
let deadPid: number;

beforeAll(async () => {
  // A pid that ran and is gone: the owner of the "dead" journals below.
  const child = execFile(process.execPath, ['-e', '']);
  deadPid = child.pid ?? 0;
  await new Promise((resolve) => child.once('exit', resolve));
});
beforeEach(async () => {
  rootDir = await mkdtemp(join(tmpdir(), 'cairn-fs-journal-'));
});
afterEach(async () => {
  await rm(rootDir, { recursive: true, force: true });
});

const journalDir = () => join(rootDir, 'projects', 'default', 'journal');
const logFile = (id: string) => join(rootDir, 'projects', 'default', 'conversations', id, 'messages.jsonl');
const wals = () => readdirSync(journalDir()).filter((name) => name.endsWith('.wal'));
const openStore = (durability: FsDurability = 'append') => new FsConversationStore({ rootDir, durability });
const ids = async (store: FsConversationStore, id: string) =>
  (await store.load(id)).map((message) => message.id);

/**
 * Appends `count` messages to `id` durably, then leaves what a process killed at that moment leaves:
 * its journal, under a dead pid's name. Returns where each message's record starts in the log.
 */
async function appendThenDie(id: string, count: number, durability: FsDurability = 'append') {
  const store = openStore(durability);
  const offsets: number[] = [];
  for (let index = 0; index < count; index++) {
    offsets.push(recordsEnd(readLog(id)));
    const message =
      durability === 'turn' && index === count - 1
        ? {
            id: `m${index}`,
            role: 'assistant' as const,
            content: 'done',
            createdAt: new Date().toISOString(),
          }
        : userMessage(`m${index}`, `message ${index} ${'x'.repeat(200 * index)}`);
    await store.append(id, [message]);
  }
  const [own] = wals();
  const dead = journalFileName('deadbeef0001', deadPid);
  copyFileSync(join(journalDir(), own ?? ''), join(journalDir(), dead));
  await store.close();
  return { offsets, dead };
}

function readLog(id: string): Buffer {
  try {
    return readFileSync(logFile(id));
  } catch {
    return Buffer.alloc(0);
  }
}

describe('journal recovery', () => {
  it('names a dead process’s journal as orphaned, and neither its own nor a live one', () => {
    expect(isOrphanedJournal(journalFileName('a1', deadPid))).toBe(true);
    expect(isOrphanedJournal(journalFileName('a1'))).toBe(false);
    expect(isOrphanedJournal(journalFileName('a1', process.ppid))).toBe(false);
    expect(isOrphanedJournal('recovery.lock')).toBe(false);
    expect(isOrphanedJournal(`other-host--x--${deadPid}--a1.wal`)).toBe(false);
  });

  it('writes back the appends a power cut took from the log (zeroed pages), syncs, and deletes the journal', async () => {
    const { offsets, dead } = await appendThenDie('c1', 6);
    const log = readLog('c1');
    // The last three records never reached the disk: the padding's zeros where they were.
    writeFileSync(logFile('c1'), Buffer.from(log).fill(0, offsets[3]));
    const store = openStore();
    expect(await ids(store, 'c1')).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5']);
    expect(readLog('c1').subarray(0, recordsEnd(readLog('c1')))).toEqual(log.subarray(0, recordsEnd(log)));
    expect(wals()).not.toContain(dead);
    await store.close();
  });

  it('writes back a record cut short, and records past the end of a log that lost its size', async () => {
    const { offsets } = await appendThenDie('c1', 5, 'turn');
    const log = readLog('c1');
    const torn = Buffer.from(log.subarray(0, (offsets[3] ?? 0) + 40));
    writeFileSync(logFile('c1'), torn);
    const store = openStore();
    expect(await ids(store, 'c1')).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    await store.close();
  });

  it('writes nothing when the log has every record (a process killed, the machine running)', async () => {
    const { dead } = await appendThenDie('c1', 4);
    const before = readLog('c1');
    const store = openStore();
    expect(await ids(store, 'c1')).toEqual(['m0', 'm1', 'm2', 'm3']);
    expect(readLog('c1')).toEqual(before);
    expect(wals()).not.toContain(dead);
    await store.close();
  });

  it('does not bring back a deleted conversation, nor write old records into a new log of the same id', async () => {
    await appendThenDie('gone', 3);
    await appendThenDie('again', 3);
    const store = openStore('none');
    // Both dead journals are recovered by this store's first call, before it deletes anything.
    expect(await store.deleteConversation('gone')).toBe(true);
    await store.deleteConversation('again');
    await store.append('again', [userMessage('new0', 'a new conversation')]);
    await store.close();
    // Two more dead journals of the old conversations, found by the next store.
    for (const [index, id] of ['gone', 'again'].entries()) {
      const record = Buffer.concat(
        encodeJournalRecord({
          conversationId: id,
          ino: 1,
          birthtimeMs: 1,
          offset: 0,
          bytes: Buffer.from('{"not":"this"}\n'),
        }),
      );
      writeFileSync(join(journalDir(), journalFileName(`old${index}`, deadPid)), record);
    }
    const next = openStore();
    expect(await ids(next, 'again')).toEqual(['new0']);
    expect(await ids(next, 'gone')).toEqual([]);
    expect(wals()).toEqual([]);
    await next.close();
  });

  it('replays the records before a journal’s torn end and ignores the torn one', async () => {
    const { offsets, dead } = await appendThenDie('c1', 4);
    const journal = readFileSync(join(journalDir(), dead));
    // The journal's last record cut in the middle (its sync never completed: never acknowledged).
    const end = recordsEnd(journal);
    writeFileSync(join(journalDir(), dead), journal.subarray(0, end - 30));
    writeFileSync(logFile('c1'), Buffer.from(readLog('c1')).fill(0, offsets[2]));
    const store = openStore();
    expect(await ids(store, 'c1')).toEqual(['m0', 'm1', 'm2']);
    await store.close();
  });

  it('leaves a live process’s journal alone', async () => {
    const live = openStore();
    await live.append('c1', [userMessage('m0', 'x')]);
    const [own] = wals();
    const other = openStore();
    expect(await ids(other, 'c1')).toEqual(['m0']);
    expect(wals()).toEqual([own]);
    await other.close();
    await live.close();
    expect(wals()).toEqual([]);
  });
});
