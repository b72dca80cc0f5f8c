import { describe, expect, it } from 'vitest';
import { toStoreError } from './sqlite-error.js';

// node:sqlite's errors: code ERR_SQLITE_ERROR, the extended result code in errcode.
function nodeSqliteError(errcode: number, errstr: string): Error {
  return Object.assign(new Error(errstr), { code: 'ERR_SQLITE_ERROR', errcode, errstr });
}

// better-sqlite3's: the extended result code's name in code.
function betterSqlite3Error(code: string): Error {
  return Object.assign(new Error(code), { code });
}

describe('toStoreError', () => {
  it('a lock past the busy timeout is retryable STORE_UNAVAILABLE on both drivers', () => {
    for (const error of [
      nodeSqliteError(5, 'database is locked'),
      nodeSqliteError(5 | (2 << 8), 'database is locked'), // SQLITE_BUSY_SNAPSHOT
      nodeSqliteError(6, 'database table is locked'),
      betterSqlite3Error('SQLITE_BUSY'),
    ]) {
      const converted = toStoreError(error, 'append');
      expect(converted.code).toBe('STORE_UNAVAILABLE');
      expect(converted.retryable).toBe(true);
      expect(converted.cause).toBe(error);
    }
  });

  it('a damaged file is STORE_CORRUPT on both drivers', () => {
    for (const error of [
      nodeSqliteError(11, 'database disk image is malformed'),
      nodeSqliteError(26, 'file is not a database'),
      betterSqlite3Error('SQLITE_NOTADB'),
    ]) {
      expect(toStoreError(error, 'load').code).toBe('STORE_CORRUPT');
    }
  });

  it("keeps node:sqlite's primary code by name", () => {
    const converted = toStoreError(nodeSqliteError(13, 'database or disk is full'), 'append');
    expect(converted.code).toBe('STORE_UNAVAILABLE');
    expect(converted.details).toEqual({ sqliteCode: 'SQLITE_FULL' });
  });
});
