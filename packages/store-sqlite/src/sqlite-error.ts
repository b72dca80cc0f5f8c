import { CairnError } from '@cairn/core';

function sqliteCode(error: unknown): string | undefined {
  const code = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
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
