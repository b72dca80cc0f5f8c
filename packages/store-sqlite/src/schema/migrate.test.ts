import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CairnError } from '@cairn/core';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { betterSqlite3Connection } from '../better-sqlite3-connection.js';
import { createSqliteConversationStore } from '../sqlite-conversation-store.js';
import { migrate } from './migrate.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';

const run = promisify(execFile);
const ALL_VERSIONS = MIGRATIONS.map((migration) => migration.version);
let dir: string;
let filename: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cairn-sqlite-migrate-'));
  filename = join(dir, 'cairn.db');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function versions(db: Database.Database): number[] {
  return db.prepare('SELECT version FROM cairn_schema_version ORDER BY version').pluck().all() as number[];
}

function tables(db: Database.Database): string[] {
  return db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'cairn%' ORDER BY name")
    .pluck()
    .all() as string[];
}

describe('migrate', () => {
  it('creates the schema on a fresh database and records its version', () => {
    const db = new Database(filename);
    expect(migrate(betterSqlite3Connection(db))).toBe(SCHEMA_VERSION);
    expect(tables(db)).toEqual([
      'cairn_appends',
      'cairn_blobs',
      'cairn_conversations',
      'cairn_leases',
      'cairn_message_ids',
      'cairn_messages',
      'cairn_schema_version',
    ]);
    expect(versions(db)).toEqual(ALL_VERSIONS);
    db.close();
  });

  it('is a no-op when reopening: data and version rows stay as they were', async () => {
    const first = createSqliteConversationStore({ filename });
    await first.append('c1', [
      { id: 'm1', role: 'user', content: 'kept', createdAt: '2026-01-01T00:00:00.000Z' },
    ]);
    await first.close();
    const second = createSqliteConversationStore({ filename });
    expect((await second.load('c1')).map((message) => message.content)).toEqual(['kept']);
    await second.close();
    const db = new Database(filename);
    expect(versions(db)).toEqual(ALL_VERSIONS);
    db.close();
  });

  it('applies only the migrations a database lacks, and a failing one rolls back whole', () => {
    const db = new Database(filename);
    migrate(betterSqlite3Connection(db));
    const next = SCHEMA_VERSION + 1;
    const broken = [
      ...MIGRATIONS,
      { version: next, sql: 'CREATE TABLE cairn_extra (x); SELECT * FROM missing_table;' },
    ];
    expect(() => migrate(betterSqlite3Connection(db), broken)).toThrow(/missing_table/);
    expect(tables(db)).not.toContain('cairn_extra');
    expect(versions(db)).toEqual(ALL_VERSIONS);
    const added = [...MIGRATIONS, { version: next, sql: 'CREATE TABLE cairn_extra (x)' }];
    expect(migrate(betterSqlite3Connection(db), added)).toBe(next);
    expect(tables(db)).toContain('cairn_extra');
    expect(versions(db)).toEqual([...ALL_VERSIONS, next]);
    db.close();
  });

  it('indexes the message ids of a version 1 database: ids stored twice stay, no new repeat gets in', async () => {
    const db = new Database(filename);
    migrate(betterSqlite3Connection(db), MIGRATIONS.slice(0, 1));
    const num = db
      .prepare("INSERT INTO cairn_conversations (id, created_at) VALUES ('c1', 'then') RETURNING num")
      .pluck()
      .get() as number;
    // Version 1 took any id, twice too; these ids are distinct only byte for byte.
    const ids = ['dup', 'q"uote\\', 'lone\ud800', 'lone\udbff', 'nul\u0000', 'dup'];
    const insert = db.prepare(
      'INSERT INTO cairn_messages (key, at, message) VALUES (? * 4294967296 + ?, ?, ?)',
    );
    ids.forEach((id, index) => {
      const seq = index + 1;
      insert.run(num, seq, 'then', JSON.stringify({ id, role: 'user', content: id, createdAt: 'then', seq }));
    });
    db.close();
    const store = createSqliteConversationStore({ filename });
    expect((await store.load('c1')).map((message) => message.id)).toEqual(ids);
    for (const [index, id] of ids.entries()) {
      const error = await store
        .append('c1', [{ id, role: 'user', content: 'again', createdAt: '2026-01-01T00:00:00.000Z' }])
        .catch((failure: unknown) => failure);
      expect(CairnError.is(error, 'STORE_CONFLICT')).toBe(true);
      // The first message with the id is the one indexed.
      expect((error as CairnError).details).toMatchObject({
        messageId: id,
        seq: id === 'dup' ? 1 : index + 1,
      });
    }
    const fresh = {
      id: 'lone\udfff',
      role: 'user' as const,
      content: 'new',
      createdAt: '2026-01-01T00:00:00.000Z',
    };
    expect((await store.append('c1', [fresh])).seqs).toEqual([7]);
    await store.close();
  });

  it('refuses a database from a newer version, naming the package to upgrade', async () => {
    const db = new Database(filename);
    migrate(betterSqlite3Connection(db));
    db.prepare('INSERT INTO cairn_schema_version (version, applied_at) VALUES (?, ?)').run(
      SCHEMA_VERSION + 1,
      'later',
    );
    db.close();
    let caught: unknown;
    try {
      createSqliteConversationStore({ filename });
    } catch (error) {
      caught = error;
    }
    expect(CairnError.is(caught, 'STORE_UNAVAILABLE')).toBe(true);
    expect((caught as CairnError).retryable).toBe(false);
    expect((caught as CairnError).message).toMatch(/newer.*upgrade @cairn\/store-sqlite/);
  });

  it('runs once when several processes open a fresh file at the same moment', async () => {
    const entry = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
    const script = `
      const { createSqliteConversationStore } = await import(${JSON.stringify(entry)});
      const store = createSqliteConversationStore({ filename: ${JSON.stringify(filename)} });
      await store.append('c1', [{ id: 'm' + process.pid, role: 'user', content: 'hi', createdAt: '2026-01-01T00:00:00.000Z' }]);
      await store.close();`;
    await Promise.all(
      Array.from({ length: 6 }, () => run(process.execPath, ['--input-type=module', '-e', script])),
    );
    const db = new Database(filename);
    expect(versions(db)).toEqual(ALL_VERSIONS);
    expect(db.prepare('SELECT count(*) FROM cairn_messages').pluck().get()).toBe(6);
    db.close();
  });
});
