import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { caughtCairnError, userMessage } from '@cairn/storage/testkit';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
    other.prepare("UPDATE cairn_messages SET message = '{torn' WHERE seq = 1").run();
    other.close();
    expect((await caughtCairnError(store.load('c1'))).code).toBe('STORE_CORRUPT');
    await store.close();
  });

  it('stores each message as JSON text including its seq', async () => {
    const store = createSqliteConversationStore({ filename });
    await store.append('c1', [message('m1', 'a\u0000b'), message('m2', 'c')]);
    const other = new Database(filename);
    const rows = other.prepare('SELECT message FROM cairn_messages ORDER BY seq').pluck().all() as string[];
    expect(rows.map((row) => JSON.parse(row))).toEqual([
      { ...message('m1', 'a\u0000b'), seq: 1 },
      { ...message('m2', 'c'), seq: 2 },
    ]);
    other.close();
    await store.close();
  });
});
