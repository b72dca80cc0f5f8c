import { createHash } from 'node:crypto';
import {
  appendFileSync,
  closeSync,
  existsSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CairnError, type ConversationMessage, createImagePart, type MediaPart } from '@cairn/core';
import { readPartBytes } from '@cairn/storage';
import { rejectsWithCode, toolTurn, userMessage } from '@cairn/storage/testkit';
import { createGate, simulatedDelay } from '@cairn/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFsConversationStore } from './fs-conversation-store.js';
import type { FsConversationStoreOptions } from './fs-store-options.js';
import type { QuarantineReport } from './quarantine.js';

let rootDir: string;
let reports: QuarantineReport[];

beforeEach(async () => {
  rootDir = await mkdtemp(join(tmpdir(), 'cairn-fs-test-'));
  reports = [];
});
afterEach(async () => {
  await rm(rootDir, { recursive: true, force: true });
});

function openStore(options: Partial<FsConversationStoreOptions> = {}) {
  return createFsConversationStore({ rootDir, onQuarantine: (report) => reports.push(report), ...options });
}

const conversationDir = (id: string) => join(rootDir, 'projects', 'default', 'conversations', id);
const logFile = (id: string) => join(conversationDir(id), 'messages.jsonl');

async function seed(id: string, count: number) {
  const store = openStore();
  for (let index = 1; index <= count; index++)
    await store.append(id, [userMessage(`m${index}`, `message ${index}`)]);
  await store.close();
}

describe('layout', () => {
  it('keeps the seed layout: a JSONL log per conversation and offloaded outputs under state/logs', async () => {
    const store = openStore();
    await store.append('c1', toolTurn('t', 1));
    await store.append('c1', [
      {
        id: 'big',
        role: 'tool',
        tool_call_id: 't-call-0',
        content: 'z'.repeat(60_000),
        createdAt: new Date().toISOString(),
      },
    ]);
    const lines = readFileSync(logFile('c1'), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ seq: 1, last: 2, msg: { id: 't-a', seq: 1 } });
    expect(lines[0]).toMatch(/,"crc":"[0-9a-f]{8}"\}$/);
    const blob = join(rootDir, 'projects', 'default', 'state', 'logs', 'tool-results', 'c1', 'big.txt');
    expect(readFileSync(blob, 'utf8')).toBe('z'.repeat(60_000));
  });

  it("keeps a part's bytes in state/logs/attachments/<conversation>/<sha256>, written once, and a 5 MB image's log under 10 KB", async () => {
    const store = openStore();
    const bytes = Buffer.alloc(5 * 1024 * 1024, 7);
    bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const image = createImagePart(bytes, { fileName: 'shot.png' });
    await store.append('c1', [
      { id: 'u1', role: 'user', content: [image], createdAt: new Date().toISOString() },
    ]);
    expect(statSync(logFile('c1')).size).toBeLessThan(10_000);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const blob = join(rootDir, 'projects', 'default', 'state', 'logs', 'attachments', 'c1', sha256);
    expect(readFileSync(blob).equals(bytes)).toBe(true);
    // Written once: the next append of the same bytes leaves the file (its inode) as it was.
    const { ino } = statSync(blob);
    await store.append('c1', [
      { id: 'u2', role: 'user', content: [image], createdAt: new Date().toISOString() },
    ]);
    expect(statSync(blob).ino).toBe(ino);
    // A blob removed by hand: the conversation loads, its bytes are STORE_NOT_FOUND naming the part.
    unlinkSync(blob);
    const [loaded] = await openStore().load('c1');
    const part = ((loaded as ConversationMessage).content as MediaPart[])[0] as MediaPart;
    await expect(readPartBytes(store, 'c1', part)).rejects.toMatchObject({
      code: 'STORE_NOT_FOUND',
      message: expect.stringContaining('shot.png'),
    });
    await store.close();
  });

  it('refuses an unsafe projectId and a bad durability', () => {
    expect(() => createFsConversationStore({ rootDir, projectId: '../other' })).toThrow(CairnError);
    expect(() => createFsConversationStore({ rootDir, durability: 'sometimes' as 'none' })).toThrow(
      /durability/,
    );
  });

  it('every durability level stores and reloads the same messages', async () => {
    for (const durability of ['none', 'turn', 'append'] as const) {
      const store = openStore({ durability, projectId: durability });
      await store.append('c1', [
        userMessage('u', 'q'),
        { id: 'a', role: 'assistant', content: 'done', createdAt: new Date().toISOString() },
      ]);
      await store.close();
      expect(
        (await openStore({ durability, projectId: durability }).load('c1')).map((message) => message.id),
      ).toEqual(['u', 'a']);
    }
  });
});

describe('quarantine', () => {
  it('a torn final line is moved to messages.jsonl.corrupt, reported, and the conversation goes on', async () => {
    await seed('c1', 3);
    const torn = '{"seq":4,"at":"2026-01-01T00:00:00.000Z","msg":{"id":"m4","ro';
    appendFileSync(logFile('c1'), torn);
    const store = openStore();
    expect((await store.load('c1')).map((message) => message.id)).toEqual(['m1', 'm2', 'm3']);
    expect(reports).toEqual([
      expect.objectContaining({ conversationId: 'c1', reason: 'torn', length: torn.length }),
    ]);
    const quarantined = readFileSync(`${logFile('c1')}.corrupt`, 'utf8');
    expect(quarantined).toContain(torn);
    expect(quarantined).toMatch(/^# quarantined \{.*"reason":"torn"/);
    expect((await store.append('c1', [userMessage('m4', 'again')])).seqs).toEqual([4]);
    expect((await openStore().load('c1')).map((message) => message.seq)).toEqual([1, 2, 3, 4]);
  });

  it('a corrupt line in the middle is quarantined and the messages after it still load', async () => {
    await seed('c1', 5);
    const lines = readFileSync(logFile('c1'), 'utf8').split('\n');
    const damaged = (lines[2] ?? '').replace('message 3', 'message X');
    lines[2] = damaged;
    writeFileSync(logFile('c1'), lines.join('\n'));
    const store = openStore();
    expect((await store.load('c1')).map((message) => message.id)).toEqual(['m1', 'm2', 'm4', 'm5']);
    expect(reports).toEqual([expect.objectContaining({ reason: 'checksum' })]);
    expect(readFileSync(`${logFile('c1')}.corrupt`, 'utf8')).toContain(damaged);
    // The log itself no longer holds the bad line, so the warning is given once.
    expect(readFileSync(logFile('c1'), 'utf8')).not.toContain('message X');
    await openStore().load('c1');
    expect(reports).toHaveLength(1);
    expect((await store.append('c1', [userMessage('m6', 'next')])).seqs).toEqual([6]);
  });

  it('a batch cut short by a crash never half-appears', async () => {
    const store = openStore();
    await store.append('c1', [userMessage('m1', 'start')]);
    const before = readFileSync(logFile('c1'));
    await store.append('c1', toolTurn('t', 2));
    const full = readFileSync(logFile('c1'));
    await store.close();
    // Keep the batch's first two of three lines, as if the write had been cut there.
    const batch = full.subarray(before.length);
    const twoLines = batch.subarray(0, batch.indexOf(0x0a, batch.indexOf(0x0a) + 1) + 1);
    writeFileSync(logFile('c1'), Buffer.concat([before, twoLines]));
    const reopened = openStore();
    expect((await reopened.load('c1')).map((message) => message.id)).toEqual(['m1']);
    expect(reports).toEqual([
      expect.objectContaining({ reason: 'incomplete-batch', length: twoLines.length }),
    ]);
  });
});

describe('legacy messages.json', () => {
  const legacy: unknown[] = [
    { id: 'u1', role: 'user', content: 'read it', createdAt: '2025-01-01T00:00:00.000Z', timestamp: 1 },
    {
      id: 'a1',
      role: 'assistant',
      content: null,
      createdAt: '2025-01-01T00:00:01.000Z',
      tool_calls: [{ id: 'call-1', type: 'function', function: { name: 'read_file', arguments: '{}' } }],
    },
    // Same timestamp as its call: order must come from the array, not the clock.
    {
      id: 't1',
      role: 'tool',
      tool_call_id: 'call-1',
      content: 'file text',
      createdAt: '2025-01-01T00:00:01.000Z',
    },
    { role: 'user', content: 'no id, not a valid message' },
  ];

  it('is migrated once to JSONL in array order, invalid elements quarantined, the original kept', async () => {
    await mkdir(conversationDir('old'), { recursive: true });
    const original = JSON.stringify(legacy, null, 2);
    await writeFile(join(conversationDir('old'), 'messages.json'), original);
    const store = openStore();
    const loaded = await store.load('old');
    expect(loaded.map((message) => [message.id, message.seq])).toEqual([
      ['u1', 1],
      ['a1', 2],
      ['t1', 3],
    ]);
    expect((loaded[0] as ConversationMessage & { timestamp?: number }).timestamp).toBe(1);
    expect(await readFile(join(conversationDir('old'), 'messages.json'), 'utf8')).toBe(original);
    expect(existsSync(logFile('old'))).toBe(true);
    expect(reports).toEqual([expect.objectContaining({ reason: 'invalid-legacy-message' })]);
    expect(readFileSync(`${logFile('old')}.corrupt`, 'utf8')).toContain('no id, not a valid message');
    expect((await store.append('old', [userMessage('u2', 'more')])).seqs).toEqual([4]);
    const summary = (await store.listConversations()).conversations[0];
    expect(summary).toMatchObject({
      id: 'old',
      messageCount: 4,
      title: 'read it',
      createdAt: '2025-01-01T00:00:00.000Z',
    });
  });

  it('a legacy conversation is listed before it was ever loaded', async () => {
    await mkdir(conversationDir('old'), { recursive: true });
    await writeFile(join(conversationDir('old'), 'messages.json'), JSON.stringify(legacy.slice(0, 3)));
    expect((await openStore().listConversations()).conversations).toEqual([
      expect.objectContaining({ id: 'old', messageCount: 3 }),
    ]);
  });

  it('an id the legacy array repeats stays loadable; no new message may take it', async () => {
    await mkdir(conversationDir('old'), { recursive: true });
    const repeated = { ...(legacy[0] as object), content: 'the same id again' };
    await writeFile(
      join(conversationDir('old'), 'messages.json'),
      JSON.stringify([...legacy.slice(0, 3), repeated]),
    );
    const store = openStore();
    expect((await store.load('old')).map((message) => message.id)).toEqual(['u1', 'a1', 't1', 'u1']);
    const error = await store
      .append('old', [userMessage('u1', 'a third')])
      .catch((failure: unknown) => failure);
    expect(CairnError.is(error, 'STORE_CONFLICT')).toBe(true);
    expect((error as CairnError).details).toMatchObject({ messageId: 'u1', seq: 1 });
    expect((await store.append('old', [userMessage('u2', 'new')])).seqs).toEqual([5]);
  });

  it('a legacy file that is not an array fails with STORE_CORRUPT and is left alone', async () => {
    await mkdir(conversationDir('old'), { recursive: true });
    await writeFile(join(conversationDir('old'), 'messages.json'), '{"not": "an array"');
    await rejectsWithCode(openStore().load('old'), 'STORE_CORRUPT');
    expect(await readFile(join(conversationDir('old'), 'messages.json'), 'utf8')).toBe('{"not": "an array"');
  });
});

describe('lock', () => {
  const lockFile = (id: string) => join(conversationDir(id), 'lock');
  // The lock is a symlink to a name that is no file: existsSync would follow it and say false.
  const lockExists = (id: string) => {
    try {
      lstatSync(lockFile(id));
      return true;
    } catch {
      return false;
    }
  };

  it('an append slowed past lockStaleMs writes no message and fails retryably; the taker-over keeps its append', async () => {
    // Stale after 1 s; the slowed append, holding the lock, goes on only once the other store has
    // taken the lock over and appended: the other appends keep a second of room on a loaded CI
    // machine (at 300 ms one of them lapsed too).
    const slow = openStore({ lockStaleMs: 1_000 });
    const other = openStore({ lockStaleMs: 1_000 });
    await slow.append('c1', [userMessage('m1', 'first')]);
    const putBlob = slow.putBlob.bind(slow);
    const slowed = createGate();
    const takenOver = createGate();
    slow.putBlob = async (ref, data) => {
      slowed.open();
      await takenOver.promise;
      return putBlob(ref, data);
    };
    const big: ConversationMessage = {
      id: 'big',
      role: 'tool',
      tool_call_id: 'call-1',
      content: 'z'.repeat(60_000),
      createdAt: new Date().toISOString(),
    };
    const slowAppend = slow.append('c1', [big]);
    await slowed.promise;
    await other.append('c1', [userMessage('m2', 'from the process that took the lock over')]);
    takenOver.open();
    await rejectsWithCode(slowAppend, 'STORE_UNAVAILABLE');
    expect((await openStore().load('c1')).map((message) => message.id)).toEqual(['m1', 'm2']);
    slow.putBlob = putBlob;
    await slow.append('c1', [big]);
    expect((await openStore().load('c1')).map((message) => message.seq)).toEqual([1, 2, 3]);
    expect(reports).toEqual([]);
    await Promise.all([slow.close(), other.close()]);
  });

  it('takes over a lock whose owner process is gone', async () => {
    await seed('c1', 1);
    const { symlinkSync } = await import('node:fs');
    const { hostname } = await import('node:os');
    // PID 2^22 + 1 is above Linux's pid_max default, so no such process exists.
    symlinkSync(`${hostname()} 4194305 ${Date.now()} dead`, lockFile('c1'));
    expect((await openStore().append('c1', [userMessage('m2', 'x')])).seqs).toEqual([2]);
    // The new owner keeps it only until the event loop is idle.
    await expect.poll(() => lockExists('c1')).toBe(false);
  });

  it('waits for a live owner, then fails with a retryable STORE_UNAVAILABLE', async () => {
    await seed('c1', 1);
    const { symlinkSync } = await import('node:fs');
    const { hostname } = await import('node:os');
    symlinkSync(`${hostname()} ${process.pid} ${Date.now()} alive`, lockFile('c1'));
    const error = await openStore({ lockTimeoutMs: 200 })
      .append('c1', [userMessage('m2', 'x')])
      .catch((caught: unknown) => caught);
    expect(CairnError.is(error, 'STORE_UNAVAILABLE')).toBe(true);
    expect((error as CairnError).retryable).toBe(true);
  });

  it('keeps the lock while idle (no lock syscalls per append) and gives it back on close()', async () => {
    const store = openStore();
    const appends = Array.from({ length: 20 }, (_, index) =>
      store.append('c1', [userMessage(`m${index}`, 'x')]),
    );
    await Promise.all(appends);
    // Idle for a while is the point: the lease outlives the event loop going idle.
    await simulatedDelay(20);
    expect(lockExists('c1')).toBe(true);
    expect((await store.load('c1')).length).toBe(20);
    await store.close();
    expect(lockExists('c1')).toBe(false);
  });

  it('two instances appending to two conversations in opposite orders both finish (no lock cycle)', async () => {
    const [x, y] = [openStore({ lockTimeoutMs: 3000 }), openStore({ lockTimeoutMs: 3000 })];
    const results = await Promise.allSettled([
      x.append('a', [userMessage('x1', 'x')]).then(() => x.append('b', [userMessage('x2', 'x')])),
      y.append('b', [userMessage('y1', 'y')]).then(() => y.append('a', [userMessage('y2', 'y')])),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled']);
    expect((await x.load('a')).length + (await x.load('b')).length).toBe(4);
  });

  it('a process that exits without close() leaves no lock behind', async () => {
    const { execFileSync } = await import('node:child_process');
    const script = `import { createFsConversationStore } from '@cairn/store-fs';
      const store = createFsConversationStore({ rootDir: process.argv[1] });
      await store.append('c1', [{ id: 'm1', role: 'user', content: 'hi', createdAt: new Date().toISOString() }]);
      process.exit(0);`;
    execFileSync(process.execPath, ['--input-type=module', '-e', script, rootDir], {
      cwd: new URL('..', import.meta.url),
    });
    expect(lockExists('c1')).toBe(false);
    expect((await openStore().load('c1')).map((message) => message.id)).toEqual(['m1']);
  });

  it('takes over a lock older than lockStaleMs even if its owner looks alive', async () => {
    await seed('c1', 1);
    const { symlinkSync } = await import('node:fs');
    symlinkSync(`other-host 1 ${Date.now() - 60_000} hung`, lockFile('c1'));
    expect((await openStore({ lockStaleMs: 30_000 }).append('c1', [userMessage('m2', 'x')])).seqs).toEqual([
      2,
    ]);
  });
});

describe("durability 'append': preallocated logs", () => {
  const recordBytes = (id: string) => {
    const bytes = readFileSync(logFile(id));
    return { size: bytes.length, records: bytes.subarray(0, bytes.indexOf(0)) };
  };

  it('pads the log with zeros ahead of its records; loads, lists and reopens see only the records', async () => {
    const store = openStore({ durability: 'append' });
    await store.append('c1', [userMessage('m1', 'first')]);
    await store.append('c1', toolTurn('t', 2));
    const { size, records } = recordBytes('c1');
    expect(size).toBeGreaterThanOrEqual(records.length + 64 * 1024);
    expect(records.toString('utf8').split('\n')).toHaveLength(5);
    const reopened = openStore();
    expect((await reopened.load('c1')).map((message) => message.seq)).toEqual([1, 2, 3, 4]);
    expect((await reopened.listConversations()).conversations[0]).toMatchObject({
      messageCount: 4,
      lastSeq: 4,
    });
    await store.close();
  });

  it('another instance appends into the padding: the file keeps its size, and every reader notices', async () => {
    const writer = openStore({ durability: 'append' });
    const reader = openStore();
    await writer.append('c1', [userMessage('m1', 'first')]);
    expect((await reader.listConversations()).conversations[0]).toMatchObject({ messageCount: 1 });
    expect(await reader.load('c1')).toHaveLength(1);
    const before = recordBytes('c1').size;
    // A plain instance appends where the records end, not after the padding.
    await reader.append('c1', [userMessage('m2', 'second')]);
    await writer.append('c1', [userMessage('m3', 'third')]);
    expect(recordBytes('c1').size).toBe(before);
    expect(recordBytes('c1').records.toString('utf8').trimEnd().split('\n')).toHaveLength(3);
    for (const store of [reader, writer, openStore()]) {
      expect((await store.load('c1')).map((message) => message.id)).toEqual(['m1', 'm2', 'm3']);
      expect((await store.listConversations()).conversations[0]).toMatchObject({
        messageCount: 3,
        lastSeq: 3,
      });
    }
    await Promise.all([writer.close(), reader.close()]);
  });

  it('a torn record inside the padding is quarantined, and the next append lands where the records end', async () => {
    const store = openStore({ durability: 'append' });
    await store.append('c1', [userMessage('m1', 'first')]);
    await store.close();
    const { records } = recordBytes('c1');
    const fd = openSync(logFile('c1'), 'r+');
    writeSync(fd, Buffer.from('{"seq":2,"at":"torn'), 0, 19, records.length);
    closeSync(fd);
    const next = openStore({ durability: 'append' });
    await next.append('c1', [userMessage('m2', 'second')]);
    expect((await openStore().load('c1')).map((message) => message.id)).toEqual(['m1', 'm2']);
    expect(reports).toMatchObject([{ reason: 'torn', offset: records.length, length: 19 }]);
    expect(readFileSync(`${logFile('c1')}.corrupt`, 'utf8')).toContain('{"seq":2,"at":"torn');
    await next.close();
  });
});

describe('conversation index', () => {
  it('is written by listing, rebuilt when missing or corrupt, and follows appends from other instances', async () => {
    await seed('a', 2);
    await seed('b', 1);
    const store = openStore();
    const first = await store.listConversations();
    const indexFile = join(rootDir, 'projects', 'default', 'conversations.index.json');
    expect(JSON.parse(readFileSync(indexFile, 'utf8')).conversations.a).toMatchObject({
      messageCount: 2,
      lastSeq: 2,
    });
    writeFileSync(indexFile, '{ torn');
    expect(await openStore().listConversations()).toEqual(first);
    await rm(indexFile);
    expect(await openStore().listConversations()).toEqual(first);
    const other = openStore();
    await other.append('a', [userMessage('m3', 'from another instance')]);
    const after = await store.listConversations();
    expect(after.conversations.find((summary) => summary.id === 'a')).toMatchObject({
      messageCount: 3,
      lastSeq: 3,
    });
    expect(after.conversations[0]?.id).toBe('a');
  });

  it('does not cache a count past a torn tail: the count is right once the tail is repaired', async () => {
    await seed('c1', 2);
    appendFileSync(logFile('c1'), '{"seq":3,"at":"2026-01-01T00:00:00.000Z","msg":{"id":"half');
    const lister = openStore();
    expect((await lister.listConversations()).conversations[0]).toMatchObject({ messageCount: 2 });
    await openStore().append('c1', [userMessage('m3', 'after the repair')]);
    expect((await lister.listConversations()).conversations[0]).toMatchObject({
      messageCount: 3,
      lastSeq: 3,
    });
    expect((await openStore().listConversations()).conversations[0]).toMatchObject({ messageCount: 3 });
  });

  it('a conversation may be called index.json, and one unreadable conversation does not hide the rest', async () => {
    await seed('index.json', 1);
    await seed('good', 1);
    await mkdir(conversationDir('broken'), { recursive: true });
    await writeFile(join(conversationDir('broken'), 'messages.json'), '[{"truncated"');
    const listed = await openStore().listConversations();
    expect(listed.conversations.map((summary) => summary.id).sort()).toEqual(['good', 'index.json']);
  });

  it('notices a last record cut back and replaced by other records (as after a failed sync)', async () => {
    await seed('c1', 1);
    const writer = openStore();
    await writer.append('c1', [userMessage('m2', 'a rather longer second message than the next one')]);
    await writer.close();
    expect((await openStore().listConversations()).conversations[0]).toMatchObject({ messageCount: 2 });
    const log = readFileSync(logFile('c1'));
    truncateSync(logFile('c1'), log.indexOf(0x0a) + 1);
    const other = openStore();
    await other.append('c1', [userMessage('m3', 'short'), userMessage('m4', 'fourth')]);
    await other.close();
    for (let listing = 0; listing < 2; listing++) {
      expect((await openStore().listConversations()).conversations[0]).toMatchObject({
        messageCount: 3,
        lastSeq: 3,
      });
    }
  });

  it('a conversation deleted and created again is listed afresh', async () => {
    await seed('c1', 5);
    const store = openStore();
    expect((await store.listConversations()).conversations[0]).toMatchObject({ messageCount: 5 });
    await store.deleteConversation('c1');
    await openStore().append('c1', [userMessage('again', 'a new start')]);
    expect((await openStore().listConversations()).conversations[0]).toMatchObject({
      messageCount: 1,
      title: 'a new start',
    });
    await store.close();
  });

  it('ignores directories that are not conversations', async () => {
    await seed('a', 1);
    await mkdir(join(rootDir, 'projects', 'default', 'conversations', '.deleted-x-123'), { recursive: true });
    await mkdir(join(rootDir, 'projects', 'default', 'conversations', 'empty'), { recursive: true });
    expect((await openStore().listConversations()).conversations.map((summary) => summary.id)).toEqual(['a']);
  });
});

describe('open logs', () => {
  const openLogFiles = () =>
    readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`).startsWith(rootDir);
      } catch {
        return false; // closed while listing
      }
    }).length;

  it.runIf(existsSync('/proc/self/fd'))(
    'keeps at most maxOpenLogs logs open, closing the least recently used idle ones, and reads them again on use',
    async () => {
      const store = openStore({ durability: 'none', maxOpenLogs: 2 });
      for (const id of ['a', 'b', 'c', 'd']) await store.append(id, [userMessage(`${id}1`, id)]);
      expect(openLogFiles()).toBe(2);
      await store.append('a', [userMessage('a2', 'again')]);
      expect((await store.load('a')).map((message) => message.id)).toEqual(['a1', 'a2']);
      expect(openLogFiles()).toBe(2);
      await store.close();
      expect(openLogFiles()).toBe(0);
    },
  );
});
