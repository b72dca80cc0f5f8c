import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CairnError } from '@cairn/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NodeSqliteModule } from './node-sqlite-connection.js';
import {
  installedDrivers,
  openSqliteConnection,
  type SqliteDriverChoice,
  type SqliteDriverModules,
} from './open-sqlite-connection.js';
import { createSqliteConversationStore } from './sqlite-conversation-store.js';

const hasNodeSqlite = installedDrivers.nodeSqlite() !== undefined;
const withoutBetterSqlite3: SqliteDriverModules = { ...installedDrivers, betterSqlite3: () => undefined };
const withNeither: SqliteDriverModules = { betterSqlite3: () => undefined, nodeSqlite: () => undefined };

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cairn-sqlite-driver-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function missing(choice: SqliteDriverChoice, modules: SqliteDriverModules): CairnError {
  try {
    openSqliteConnection(join(dir, 'x.db'), choice, 100, modules);
  } catch (error) {
    if (CairnError.is(error)) return error;
    throw error;
  }
  throw new Error('opened');
}

describe('openSqliteConnection', () => {
  it('auto takes better-sqlite3 when it is installed (it is in this workspace)', () => {
    const db = openSqliteConnection(join(dir, 'a.db'), 'auto', 100);
    expect(db.driver).toBe('better-sqlite3');
    db.close();
  });

  it.skipIf(!hasNodeSqlite)('auto takes node:sqlite when better-sqlite3 is not installed', () => {
    const db = openSqliteConnection(join(dir, 'a.db'), 'auto', 100, withoutBetterSqlite3);
    expect(db.driver).toBe('node:sqlite');
    db.close();
  });

  it.skipIf(!hasNodeSqlite)('node:sqlite never loads better-sqlite3', () => {
    const modules = {
      ...installedDrivers,
      betterSqlite3: () => {
        throw new Error('loaded better-sqlite3');
      },
    };
    const db = openSqliteConnection(join(dir, 'n.db'), 'node:sqlite', 100, modules);
    expect(db.driver).toBe('node:sqlite');
    db.close();
  });

  it('names both ways out when no driver is there: install better-sqlite3 or use Node >= 22.13', () => {
    const error = missing('auto', withNeither);
    expect(error.code).toBe('PACKAGE_MISSING');
    expect(error.retryable).toBe(false);
    expect(error.details).toMatchObject({ packageName: 'better-sqlite3', driver: 'auto' });
    expect(error.details?.fix).toBe(
      'run: npm install better-sqlite3, or use Node >= 22.13 (node:sqlite is built in)',
    );
  });

  it('an explicit driver that is missing says so and names the other', () => {
    const better = missing('better-sqlite3', withNeither);
    expect(better.code).toBe('PACKAGE_MISSING');
    expect(better.details?.fix).toMatch(/npm install better-sqlite3.*driver 'node:sqlite'/);
    const node = missing('node:sqlite', withNeither);
    expect(node.code).toBe('PACKAGE_MISSING');
    expect(node.message).toContain(process.version);
    expect(node.details?.fix).toMatch(
      /Node >= 22\.13.*npm install better-sqlite3 and use driver 'better-sqlite3'/,
    );
  });

  it.skipIf(hasNodeSqlite)(
    `the node:sqlite driver fails on this Node (${process.version}) with PACKAGE_MISSING`,
    () => {
      expect(() =>
        createSqliteConversationStore({ filename: join(dir, 's.db'), driver: 'node:sqlite' }),
      ).toThrow(expect.objectContaining({ code: 'PACKAGE_MISSING' }));
    },
  );

  it('an unopenable file is STORE_UNAVAILABLE on either driver', () => {
    const choices: SqliteDriverChoice[] = hasNodeSqlite
      ? ['better-sqlite3', 'node:sqlite']
      : ['better-sqlite3'];
    for (const choice of choices) {
      expect(() => openSqliteConnection(join(dir, 'no-such-dir', 'x.db'), choice, 100), choice).toThrow(
        expect.objectContaining({ code: 'STORE_UNAVAILABLE' }),
      );
    }
  });

  it.skipIf(!hasNodeSqlite)(
    'a DatabaseSync you opened: pragmas set, migrated, left open by close()',
    async () => {
      const { DatabaseSync } = installedDrivers.nodeSqlite() as NodeSqliteModule;
      const database = new DatabaseSync(join(dir, 'mine.db'));
      const store = createSqliteConversationStore({ database, durability: 'append' });
      expect(store.driver).toBe('node:sqlite');
      expect(store.capabilities).toEqual({
        persistent: true,
        concurrentInstances: true,
        search: true,
        leases: true,
      });
      const createdAt = new Date().toISOString();
      await store.putBlob('b', new Uint8Array([0, 1, 255]));
      expect(await store.getBlob('b', { offset: 1 })).toEqual(new Uint8Array([1, 255]));
      await store.append('c', [{ id: 'u1', role: 'user', content: 'hi', createdAt }]);
      await store.close();
      const pragma = (name: string) => Object.values(database.prepare(`PRAGMA ${name}`).get() as object)[0];
      expect([pragma('journal_mode'), pragma('synchronous'), pragma('foreign_keys')]).toEqual(['wal', 2, 1]);
      expect(Object.values(database.prepare('SELECT count(*) FROM cairn_messages').get() as object)).toEqual([
        1,
      ]);
      database.close();
    },
  );

  it.skipIf(!hasNodeSqlite)("':memory:' on node:sqlite is neither persistent nor shared", async () => {
    const store = createSqliteConversationStore({ filename: ':memory:', driver: 'node:sqlite' });
    expect(store.capabilities).toEqual({
      persistent: false,
      concurrentInstances: false,
      search: true,
      leases: true,
    });
    await store.close();
  });
});
