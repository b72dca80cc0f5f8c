import { CairnError } from '@cairn/core';

// Node socket errors: the server is down, restarting or unreachable.
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// SQLSTATEs worth retrying: class 08 (connection exception) and 53 (insufficient resources, e.g. too
// many connections), server shutdown or recovery, and transaction failures a retry resolves.
// 55P03: lock_timeout expired.
const RETRYABLE_SQLSTATES = new Set(['55P03', '57P01', '57P02', '57P03', '40001', '40P01']);
const RETRYABLE_SQLSTATE_CLASSES = new Set(['08', '53']);

// pg and pg-pool report a lost or never-made connection with a plain Error and no code.
const CONNECTION_ERROR_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|not queryable/i;

const UNIQUE_VIOLATION = '23505';
// The tables whose primary keys back the advisory lock: a seq, a message id.
const KEYED_BY_LOCK = new Set(['cairn_messages', 'cairn_message_ids']);

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Whether `error` means the database could not be reached or the connection was lost. */
export function isRetryableDatabaseError(error: unknown): boolean {
  if (error instanceof AggregateError && error.errors.some(isRetryableDatabaseError)) return true;
  const code = codeOf(error);
  if (code !== undefined) {
    if (CONNECTION_ERROR_CODES.has(code) || RETRYABLE_SQLSTATES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && RETRYABLE_SQLSTATE_CLASSES.has(code.slice(0, 2))) return true;
  }
  return error instanceof Error && CONNECTION_ERROR_MESSAGE.test(error.message);
}

// A second row for one (conversation_id, seq) or (conversation_id, message_id): another writer got
// there first. A unique violation anywhere else (the catalog, say) is not a conflict the caller can
// resolve by reloading.
function isDuplicateMessage(error: unknown): boolean {
  if (codeOf(error) !== UNIQUE_VIOLATION) return false;
  const table = (error as { table?: unknown }).table;
  return typeof table === 'string' && KEYED_BY_LOCK.has(table);
}

/**
 * The `CairnError` for a failure while `action` ran. CairnErrors pass through; a lost or refused
 * connection is `STORE_UNAVAILABLE` retryable; a duplicate seq or message id (the primary keys, the
 * last line of defence behind the advisory lock) is `STORE_CONFLICT`; anything else is `STORE_UNAVAILABLE` not
 * retryable, with the driver error as the cause.
 */
export function toStoreError(error: unknown, action: string): CairnError {
  if (CairnError.is(error)) return error;
  const code = codeOf(error);
  const reason = error instanceof Error && error.message !== '' ? error.message : String(code ?? error);
  const details = code === undefined ? { action } : { action, code };
  if (isRetryableDatabaseError(error)) {
    return new CairnError('STORE_UNAVAILABLE', `PostgreSQL unavailable during ${action}: ${reason}`, {
      cause: error,
      retryable: true,
      details,
    });
  }
  if (isDuplicateMessage(error)) {
    return new CairnError(
      'STORE_CONFLICT',
      `Another writer stored the same seq or message id during ${action}: reload and retry`,
      {
        cause: error,
        details,
      },
    );
  }
  return new CairnError('STORE_UNAVAILABLE', `PostgreSQL failed during ${action}: ${reason}`, {
    cause: error,
    retryable: false,
    details,
  });
}
