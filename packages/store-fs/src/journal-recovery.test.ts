import { execFile } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { userMessage } from '@cairn/storage/testkit';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FsConversationStore } from './fs-conversation-store.js';
import type { FsDurability } from './fs-store-options.js';
import { journalFileName, journalOwner } from './journal-owner.js';
import { encodeJournalRecord } from './journal-record.js';
import { recoverJournals, UNKNOWN_JOURNAL_STALE_MS } from './journal-recovery.js';
import { recordsEnd } from './log-padding.js';

// A power cut after a journal sync: the journal holds appends the log never got (zeros where it was
// padded, or cut short). The next store to open the directory writes them back, and only them.

let rootDir: string;
let dead: { pid: number; start: string };

beforeAll(async () => {
  // A pid that ran and is gone: the owner of the "dead" journals below.
  const child = execFile(process.execPath, ['-e', '']);
  dead = { pid: child.pid ?? 0, start: '1' };
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
  const deadFile = journalFileName('deadbeef0001', dead);
  copyFileSync(join(journalDir(), own ?? ''), join(journalDir(), deadFile));
  await store.close();
  return { offsets, deadFile };
}

function readLog(id: string): Buffer {
  try {
    return readFileSync(logFile(id));
  } catch {
    return Buffer.alloc(0);
  }
}

describe('journal recovery', () => {
  it('tells whose a journal is: this process’s, a live one’s, a gone one’s (a dead pid, or the same pid started again), or unknown', () => {
    const start = journalFileName('a1').split('--')[2]?.split('.')[1] ?? '';
    const parentStart =
      readFileSync(`/proc/${process.ppid}/stat`, 'utf8').split(') ')[1]?.split(' ')[19] ?? '';
    expect(journalOwner(journalFileName('a1'))).toBe('this process');
    expect(journalOwner(journalFileName('a1', { pid: process.ppid, start: parentStart }))).toBe('alive');
    expect(journalOwner(journalFileName('a1', dead))).toBe('gone');
    // A container started again: the same pid, another start time.
    expect(journalOwner(journalFileName('a1', { pid: process.pid, start: `${start}9` }))).toBe('gone');
    expect(journalOwner(`other-host--x--${dead.pid}.1--a1.wal`)).toBe('unknown');
    expect(journalOwner('recovery.lock')).toBeUndefined();
  });

  it('writes back the appends a power cut took from the log (zeroed pages), syncs, and deletes the journal', async () => {
    const { offsets, deadFile } = await appendThenDie('c1', 6);
    const log = readLog('c1');
    // The last three records never reached the disk: the padding's zeros where they were.
    writeFileSync(logFile('c1'), Buffer.from(log).fill(0, offsets[3]));
    const store = openStore();
    expect(await ids(store, 'c1')).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5']);
    expect(readLog('c1').subarray(0, recordsEnd(readLog('c1')))).toEqual(log.subarray(0, recordsEnd(log)));
    expect(wals()).not.toContain(deadFile);
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
    const { deadFile } = await appendThenDie('c1', 4);
    const before = readLog('c1');
    const store = openStore();
    expect(await ids(store, 'c1')).toEqual(['m0', 'm1', 'm2', 'm3']);
    expect(readLog('c1')).toEqual(before);
    expect(wals()).not.toContain(deadFile);
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
      writeFileSync(join(journalDir(), journalFileName(`old${index}`, dead)), record);
    }
    const next = openStore();
    expect(await ids(next, 'again')).toEqual(['new0']);
    expect(await ids(next, 'gone')).toEqual([]);
    expect(wals()).toEqual([]);
    await next.close();
  });

  it('replays the records before a journal’s torn end and ignores the torn one', async () => {
    const { offsets, deadFile } = await appendThenDie('c1', 4);
    const journal = readFileSync(join(journalDir(), deadFile));
    // The journal's last record cut in the middle (its sync never completed: never acknowledged).
    const end = recordsEnd(journal);
    writeFileSync(join(journalDir(), deadFile), journal.subarray(0, end - 30));
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

  it('replays the journal of an owner it cannot tell (another host name), and deletes it only once an hour untouched', async () => {
    const { offsets, deadFile } = await appendThenDie('c1', 4);
    const unknown = `other-host--0123--${dead.pid}.1--a1.wal`;
    renameSync(join(journalDir(), deadFile), join(journalDir(), unknown));
    writeFileSync(logFile('c1'), Buffer.from(readLog('c1')).fill(0, offsets[2]));
    const store = openStore();
    expect(await ids(store, 'c1')).toEqual(['m0', 'm1', 'm2', 'm3']);
    expect(wals()).toEqual([unknown]);
    await store.close();
    const later = () => Date.now() + UNKNOWN_JOURNAL_STALE_MS + 1000;
    const replayed: string[] = [];
    const recover = (now: () => number) =>
      recoverJournals({
        dir: journalDir(),
        withLock: (work) => work(),
        replay: async (conversationId) => {
          replayed.push(conversationId);
        },
        now,
      });
    expect(await recover(Date.now)).toBe(1);
    expect(wals()).toEqual([unknown]);
    expect(await recover(later)).toBe(1);
    expect(wals()).toEqual([]);
    expect(replayed).toEqual(['c1', 'c1']);
  });
});
