import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assistantText, caughtCairnError, listAll, userMessage } from '@cairn/storage/testkit';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSqliteConversationStore } from './sqlite-conversation-store.js';

let dir: string;
let filename: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cairn-sqlite-store-'));
  filename = join(dir, 'cairn.db');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const message = (id: string, content: string) => userMessage(id, content);

const UNSAFE_IDS = [
  "x'; DROP TABLE cairn_messages; --",
  '../x',
  'a\0b',
  '',
  'a b',
  '.hidden',
  'x'.repeat(200),
];

describe('SqliteConversationStore', () => {
  it('refuses unsafe ids before running any SQL', async () => {
    const executed: string[] = [];
    const database = new Database(filename, { verbose: (sql) => executed.push(String(sql)) });
    const store = createSqliteConversationStore({ database });
    await store.append('c1', [message('m1', 'hello')]);
    executed.length = 0;
    for (const id of UNSAFE_IDS) {
      for (const action of [
        store.append(id, [message('m2', 'x')]),
        store.load(id),
        store.deleteConversation(id),
        store.putBlob(`tool-results/${id}/x.txt`, 'x'),
        store.getBlob(`tool-results/${id}/x.txt`),
      ]) {
        expect((await caughtCairnError(action)).code).toBe('INVALID_ID');
      }
    }
    expect(executed).toEqual([]);
    expect((await store.load('c1')).map((stored) => stored.id)).toEqual(['m1']);
    await store.close();
    database.close();
  });

  it('binds ids as parameters: the SQL text never contains one', async () => {
    const statements = new Set<string>();
    const database = new Database(filename);
    const prepare = database.prepare.bind(database);
    database.prepare = ((source: string) => {
      statements.add(source);
      return prepare(source);
    }) as typeof database.prepare;
    const store = createSqliteConversationStore({ database });
    await store.append('conv-id-1', [message('m1', 'hi')], { idempotencyKey: 'key-1' });
    await store.load('conv-id-1', { direction: 'backward' });
    await store.deleteConversation('conv-id-1');
    expect([...statements].filter((source) => /conv-id-1|key-1/.test(source))).toEqual([]);
    await store.close();
    database.close();
  });

  it('gives up on a write lock held past busyTimeoutMs with a retryable STORE_UNAVAILABLE', async () => {
    const store = createSqliteConversationStore({ filename, busyTimeoutMs: 50 });
    const other = new Database(filename);
    other.exec('BEGIN IMMEDIATE');
    const error = await caughtCairnError(store.append('c1', [message('m1', 'blocked')]));
    expect(error.code).toBe('STORE_UNAVAILABLE');
    expect(error.retryable).toBe(true);
    other.exec('ROLLBACK');
    expect((await store.append('c1', [message('m1', 'now')])).seqs).toEqual([1]);
    other.close();
    await store.close();
  });

  it('reports a stored row that is not JSON as STORE_CORRUPT', async () => {
    const store = createSqliteConversationStore({ filename });
    await store.append('c1', [message('m1', 'fine')]);
    const other = new Database(filename);
    other.prepare("UPDATE cairn_messages SET message = '{torn'").run();
    other.close();
    expect((await caughtCairnError(store.load('c1'))).code).toBe('STORE_CORRUPT');
    await store.close();
  });

  it('stores each message as JSON text including its seq', async () => {
    const store = createSqliteConversationStore({ filename });
    await store.append('c1', [message('m1', 'a\u0000b'), message('m2', 'c')]);
    const other = new Database(filename);
    const rows = other.prepare('SELECT message FROM cairn_messages ORDER BY key').pluck().all() as string[];
    expect(rows.map((row) => JSON.parse(row))).toEqual([
      { ...message('m1', 'a\u0000b'), seq: 1 },
      { ...message('m2', 'c'), seq: 2 },
    ]);
    other.close();
    await store.close();
  });

  it('commits an append as few WAL pages: two to an existing conversation, four to a new one', async () => {
    const database = new Database(filename);
    // Without checkpoints the WAL only grows, so its size counts the frames each commit wrote.
    database.pragma('wal_autocheckpoint = 0');
    const store = createSqliteConversationStore({ database, durability: 'append' });
    await store.append('c1', [message('m1', 'first')]);
    const frameBytes = 24 + (database.pragma('page_size', { simple: true }) as number);
    const framesOf = async (append: () => Promise<unknown>) => {
      const before = statSync(`${filename}-wal`).size;
      await append();
      return (statSync(`${filename}-wal`).size - before) / frameBytes;
    };
    // The new conversation's row, its `id` index entry, the message leaf and the message id leaf.
    expect(await framesOf(() => store.append('c2', [assistantText('a1', 'untitled')]))).toBe(4);
    // Small messages, so no leaf splits: only the message leaf and the message id leaf.
    for (let index = 3; index < 8; index++) {
      expect(await framesOf(() => store.append('c1', [message(`m${index}`, 'x')]))).toBe(2);
    }
    // The first user message also sets the title, once. A second later than c1's appends (which a
    // fast machine can make in the same millisecond), so c2 lists first for certain.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 1_000);
      expect(await framesOf(() => store.append('c2', [message('m8', 'a title')]))).toBe(3);
      expect(await framesOf(() => store.append('c2', [message('m9', 'not a title')]))).toBe(2);
    } finally {
      vi.useRealTimers();
    }
    expect((await store.listConversations()).conversations.map(({ id, title }) => [id, title])).toEqual([
      ['c2', 'a title'],
      ['c1', 'first'],
    ]);
    await store.close();
    database.close();
  });

  it("lists count, last seq and updatedAt as of each conversation's last message", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const store = createSqliteConversationStore({ filename });
      const at = (second: number) => {
        const time = `2026-01-01T00:00:0${second}.000Z`;
        vi.setSystemTime(new Date(time));
        return time;
      };
      const t1 = at(1);
      await store.append('c1', [message('m1', 'one'), message('m2', 'two')]);
      const t2 = at(2);
      await store.append('c2', [message('m3', 'three')], { idempotencyKey: 'k' });
      await store.append('c0', [assistantText('a1', 'hello')]);
      const t3 = at(3);
      await store.append('c1', [message('m4', 'four')]);
      at(4);
      // A replay writes nothing, so it does not move c2.
      await store.append('c2', [message('m3', 'three')], { idempotencyKey: 'k' });
      const t5 = at(5);
      await store.append('c0', [message('m5', 'a late title')]);
      const summary = (id: string, createdAt: string, updatedAt: string, count: number, title?: string) => ({
        id,
        createdAt,
        updatedAt,
        messageCount: count,
        lastSeq: count,
        ...(title === undefined ? {} : { title }),
      });
      const c0 = summary('c0', t2, t5, 2, 'a late title');
      const c1 = summary('c1', t1, t3, 3, 'one');
      const c2 = summary('c2', t2, t2, 1, 'three');
      expect((await store.listConversations()).conversations).toEqual([c0, c1, c2]);
      expect(await listAll(store, 1)).toEqual([c0, c1, c2]);
      // Equal updatedAt: by id.
      at(3);
      await store.append('c2', [message('m6', 'six')]);
      const c2Later = summary('c2', t2, t3, 2, 'three');
      expect(await listAll(store, 2)).toEqual([c0, c1, c2Later]);
      expect(await store.deleteConversation('c1')).toBe(true);
      expect(await listAll(store, 1)).toEqual([c0, c2Later]);
      const t6 = at(6);
      await store.append('c1', [message('m7', 'again')]);
      expect(await listAll(store, 2)).toEqual([summary('c1', t6, t6, 1, 'again'), c0, c2Later]);
      await store.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('finds last seqs by rowid seeks, never scanning cairn_messages', async () => {
    const sources: string[] = [];
    const database = new Database(filename);
    const prepare = database.prepare.bind(database);
    database.prepare = ((source: string) => {
      sources.push(source);
      return prepare(source);
    }) as typeof database.prepare;
    const store = createSqliteConversationStore({ database });
    const plans = sources
      .filter((source) => /max\(key\)/.test(source))
      .map((source) => {
        const parameters = Array.from(source.matchAll(/\?/g), () => null);
        const plan = prepare(`EXPLAIN QUERY PLAN ${source}`).all(...parameters) as { detail: string }[];
        return plan.map(({ detail }) => detail);
      });
    // The append's lookup and the four listing statements (two of them searching, whose message
    // scan is a seek to each conversation's key range too).
    expect(plans).toHaveLength(5);
    for (const plan of plans) {
      expect(plan).toContain('SEARCH cairn_messages USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)');
      expect(plan.filter((detail) => /^SCAN (cairn_messages|m)\b/.test(detail))).toEqual([]);
    }
    await store.close();
    database.close();
  });
});
