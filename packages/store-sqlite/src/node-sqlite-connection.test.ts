// The node:sqlite driver where this Node has it (>= 22.13; CI's Node 24 run): what the conformance
// kit cannot see from outside the store.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { caughtCairnError, userMessage } from '@cairn/storage/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type NodeSqliteDatabase,
  type NodeSqliteModule,
  nodeSqliteConnection,
} from './node-sqlite-connection.js';
import { installedDrivers } from './open-sqlite-connection.js';
import { migrate } from './schema/migrate.js';
import { MIGRATIONS, SCHEMA_VERSION } from './schema/migrations.js';
import { createSqliteConversationStore } from './sqlite-conversation-store.js';

const nodeSqlite = installedDrivers.nodeSqlite() as NodeSqliteModule | undefined;
const title = nodeSqlite
  ? 'the node:sqlite driver'
  : `the node:sqlite driver (skipped: Node ${process.version} has no node:sqlite, it needs >= 22.13)`;

let dir: string;
let filename: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cairn-node-sqlite-'));
  filename = join(dir, 'cairn.db');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const open = (file = filename) => new (nodeSqlite as NodeSqliteModule).DatabaseSync(file);

describe.skipIf(nodeSqlite === undefined)(title, () => {
  it('gives up on a write lock held past busyTimeoutMs with a retryable STORE_UNAVAILABLE', async () => {
    const store = createSqliteConversationStore({ filename, busyTimeoutMs: 50, driver: 'node:sqlite' });
    const other = open();
    other.exec('BEGIN IMMEDIATE');
    const error = await caughtCairnError(store.append('c1', [userMessage('m1', 'blocked')]));
    expect(error.code).toBe('STORE_UNAVAILABLE');
    expect(error.retryable).toBe(true);
    expect(error.details).toEqual({ sqliteCode: 'SQLITE_BUSY' });
    other.exec('ROLLBACK');
    expect((await store.append('c1', [userMessage('m1', 'now')])).seqs).toEqual([1]);
    other.close();
    await store.close();
  });

  it('reports a file that is not a database as STORE_CORRUPT', async () => {
    await writeFile(filename, 'not a database, but long enough to have a header '.repeat(10));
    expect(() => createSqliteConversationStore({ filename, driver: 'node:sqlite' })).toThrow(
      expect.objectContaining({ code: 'STORE_CORRUPT', details: { sqliteCode: 'SQLITE_NOTADB' } }),
    );
  });

  it('rolls a failing transaction back whole and commits a good one', () => {
    const db = nodeSqliteConnection(open());
    expect(migrate(db)).toBe(SCHEMA_VERSION);
    const next = SCHEMA_VERSION + 1;
    const broken = [
      ...MIGRATIONS,
      { version: next, sql: 'CREATE TABLE cairn_extra (x); SELECT * FROM nope;' },
    ];
    expect(() => migrate(db, broken)).toThrow(/nope/);
    const tables = db.preparePluck<[], string>("SELECT name FROM sqlite_master WHERE name = 'cairn_extra'");
    expect(tables.all()).toEqual([]);
    expect(migrate(db, [...MIGRATIONS, { version: next, sql: 'CREATE TABLE cairn_extra (x)' }])).toBe(next);
    expect(tables.all()).toEqual(['cairn_extra']);
    // The connection is usable after both: no transaction was left open.
    db.immediate(() => db.exec('INSERT INTO cairn_extra VALUES (1)'))();
    db.close();
  });

  it('plucks the first column on a node:sqlite without setReturnArrays (before 22.16)', () => {
    const real = open(':memory:');
    // A DatabaseSync whose statements lack setReturnArrays, as Node 22.13-22.15 gives them.
    const older: NodeSqliteDatabase = {
      prepare: (sql) => {
        const statement = real.prepare(sql);
        return {
          run: (...params) => statement.run(...params),
          get: (...params) => statement.get(...params),
          all: (...params) => statement.all(...params),
        };
      },
      exec: (sql) => real.exec(sql),
      close: () => real.close(),
    };
    const db = nodeSqliteConnection(older);
    db.exec("CREATE TABLE t (a TEXT, b INTEGER); INSERT INTO t VALUES ('x', 1), ('y', 2)");
    expect(db.preparePluck<[], string>('SELECT a FROM t ORDER BY b').all()).toEqual(['x', 'y']);
    expect(db.preparePluck<[number], number>('SELECT b FROM t WHERE b = ?').get(2)).toBe(2);
    expect(db.preparePluck<[number], number>('SELECT b FROM t WHERE b = ?').get(3)).toBeUndefined();
    db.close();
  });
});
