import { CairnError } from '@cairn/core';

// SQLite's primary result codes by number (https://sqlite.org/rescode.html), for node:sqlite.
const PRIMARY_CODES = [
  'SQLITE_OK',
  'SQLITE_ERROR',
  'SQLITE_INTERNAL',
  'SQLITE_PERM',
  'SQLITE_ABORT',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_NOMEM',
  'SQLITE_READONLY',
  'SQLITE_INTERRUPT',
  'SQLITE_IOERR',
  'SQLITE_CORRUPT',
  'SQLITE_NOTFOUND',
  'SQLITE_FULL',
  'SQLITE_CANTOPEN',
  'SQLITE_PROTOCOL',
  'SQLITE_EMPTY',
  'SQLITE_SCHEMA',
  'SQLITE_TOOBIG',
  'SQLITE_CONSTRAINT',
  'SQLITE_MISMATCH',
  'SQLITE_MISUSE',
  'SQLITE_NOLFS',
  'SQLITE_AUTH',
  'SQLITE_FORMAT',
  'SQLITE_RANGE',
  'SQLITE_NOTADB',
] as const;

/**
 * The SQLite result code an error carries, as a name: better-sqlite3 names it (`code`, extended:
 * `SQLITE_BUSY_SNAPSHOT`), node:sqlite numbers it (`errcode`, extended: its low byte is the primary).
 */
function sqliteCode(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, errcode } = error as Error & { code?: unknown; errcode?: unknown };
  if (typeof code === 'string' && code.startsWith('SQLITE_')) return code;
  if (code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number') {
    return PRIMARY_CODES[errcode & 0xff] ?? `SQLITE_${errcode}`;
  }
  return undefined;
}

/**
 * A failure of the driver as a `CairnError`: a lock held past the busy timeout is
 * `STORE_UNAVAILABLE` worth retrying, a damaged file `STORE_CORRUPT`, anything else the driver
 * throws (I/O error, disk full, a closed connection) `STORE_UNAVAILABLE`. CairnErrors pass through.
 */
export function toStoreError(error: unknown, action: string): CairnError {
  if (CairnError.is(error)) return error;
  const code = sqliteCode(error);
  const reason = error instanceof Error ? error.message : String(error);
  if (code?.startsWith('SQLITE_BUSY') || code?.startsWith('SQLITE_LOCKED')) {
    return new CairnError(
      'STORE_UNAVAILABLE',
      `SQLite database is locked by another writer (${action}): ${reason}`,
      {
        cause: error,
        retryable: true,
        details: { sqliteCode: code },
      },
    );
  }
  if (code?.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') {
    return new CairnError('STORE_CORRUPT', `SQLite database is damaged (${action}): ${reason}`, {
      cause: error,
      retryable: false,
      details: { sqliteCode: code },
    });
  }
  return new CairnError('STORE_UNAVAILABLE', `SQLite failed (${action}): ${reason}`, {
    cause: error,
    ...(code === undefined ? {} : { details: { sqliteCode: code } }),
  });
}
