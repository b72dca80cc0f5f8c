import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CairnError } from '@cairn/core';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteConversationStore } from './sqlite-conversation-store.js';
import { type SqliteDurability, SYNCHRONOUS_BY_DURABILITY } from './sqlite-store-options.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cairn-sqlite-options-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

// PRAGMA synchronous reads back as a number: OFF 0, NORMAL 1, FULL 2.
const SYNCHRONOUS_LEVEL = { OFF: 0, NORMAL: 1, FULL: 2 } as const;

describe('store options', () => {
  it('maps durability to synchronous: append FULL, turn NORMAL (the default), none OFF', async () => {
    expect(SYNCHRONOUS_BY_DURABILITY).toEqual({ append: 'FULL', turn: 'NORMAL', none: 'OFF' });
    const cases: [SqliteDurability | undefined, number][] = [
      ['append', SYNCHRONOUS_LEVEL.FULL],
      ['turn', SYNCHRONOUS_LEVEL.NORMAL],
      ['none', SYNCHRONOUS_LEVEL.OFF],
      [undefined, SYNCHRONOUS_LEVEL.NORMAL],
    ];
    for (const [durability, level] of cases) {
      const database = new Database(join(dir, `${durability ?? 'default'}.db`));
      const store = createSqliteConversationStore(
        durability === undefined ? { database } : { database, durability },
      );
      expect(database.pragma('synchronous', { simple: true }), String(durability)).toBe(level);
      await store.close();
      database.close();
    }
  });

  it('sets WAL, foreign keys and the busy timeout on the connection', async () => {
    const database = new Database(join(dir, 'pragmas.db'));
    const store = createSqliteConversationStore({ database, busyTimeoutMs: 1234 });
    expect(database.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(database.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(database.pragma('busy_timeout', { simple: true })).toBe(1234);
    await store.close();
    // The caller's connection stays open: the caller closes it.
    expect(database.open).toBe(true);
    database.close();
  });

  it('claims persistence and concurrent instances for a file, neither for :memory:', async () => {
    const file = createSqliteConversationStore({ filename: join(dir, 'file.db') });
    expect(file.capabilities).toEqual({
      persistent: true,
      concurrentInstances: true,
      search: true,
      leases: true,
    });
    const memory = createSqliteConversationStore({ filename: ':memory:' });
    expect(memory.capabilities).toEqual({
      persistent: false,
      concurrentInstances: false,
      search: true,
      leases: true,
    });
    await Promise.all([file.close(), memory.close()]);
  });

  it('refuses bad options with INVALID_ARGUMENT', () => {
    const filename = join(dir, 'bad.db');
    for (const options of [
      { filename, durability: 'always' as SqliteDurability },
      { filename, busyTimeoutMs: -1 },
      { filename, busyTimeoutMs: 1.5 },
      {} as { filename: string },
    ]) {
      expect(() => createSqliteConversationStore(options)).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }) as CairnError,
      );
    }
  });

  it('reports a file it cannot open as STORE_UNAVAILABLE', () => {
    expect(() => createSqliteConversationStore({ filename: join(dir, 'missing-dir', 'x.db') })).toThrow(
      expect.objectContaining({ code: 'STORE_UNAVAILABLE' }) as CairnError,
    );
  });
});

describe('the driver option', () => {
  it('is one of auto, better-sqlite3 and node:sqlite, and goes with filename only', () => {
    const filename = join(dir, 'd.db');
    expect(() => createSqliteConversationStore({ filename, driver: 'sqlite3' as 'auto' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    const database = new Database(filename);
    expect(() => createSqliteConversationStore({ database, driver: 'better-sqlite3' } as never)).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    database.close();
  });
});
