import { setTimeout as sleep } from 'node:timers/promises';
import { CairnError } from '@cairn/core';
import type pg from 'pg';
import { advisoryLockKey } from './advisory-lock-key.js';
import { turnAbortedError } from './turn-aborted-error.js';

const FIRST_RETRY_DELAY_MS = 25;
const MAX_RETRY_DELAY_MS = 200;

/**
 * Runs `work` holding the session advisory lock of `conversationId` on a pooled connection.
 *
 * Waiting polls `pg_try_advisory_lock` with backoff (25 ms doubling to 200 ms) rather than blocking in
 * `pg_advisory_lock`: aborting then just stops polling, where cancelling a blocked `pg_advisory_lock` needs
 * a second connection and races with the lock being granted as the cancel arrives. The price is up to
 * 200 ms of latency after the holder finishes, and no FIFO order between instances.
 *
 * Ending the session releases its advisory locks, so whenever the unlock cannot be confirmed (or a lock
 * query failed midway) the connection is destroyed rather than returned to the pool.
 */
export async function withAdvisoryLock<T>(
  pool: pg.Pool,
  conversationId: string,
  work: () => Promise<T>,
  signal: AbortSignal | undefined,
): Promise<T> {
  const key = advisoryLockKey(conversationId);
  const client = await pool.connect().catch((error: unknown) => {
    throw unavailable(error);
  });
  let sessionHoldsNoLock = false;
  // A checked-out client has no pool error listener: without this one, the connection dropping
  // mid-turn (a restart, a failover, pg_terminate_backend) would be an uncaught exception. The
  // session and its lock are gone then, so the client is destroyed on release.
  let lost = false;
  const onLost = () => {
    lost = true;
  };
  client.on('error', onLost);
  try {
    if (
      !(await waitForLock(client, key, signal).catch((error: unknown) => Promise.reject(unavailable(error))))
    ) {
      sessionHoldsNoLock = true;
      throw turnAbortedError(conversationId, signal?.reason);
    }
    try {
      return await work();
    } finally {
      sessionHoldsNoLock = await unlock(client, key);
    }
  } finally {
    client.off('error', onLost);
    client.release(lost || !sessionHoldsNoLock);
  }
}

// The database failing under the lock is an outage (503), not an internal error; the driver's words stay in `cause`.
const unavailable = (error: unknown) =>
  new CairnError('STORE_UNAVAILABLE', 'the turn lock database is unavailable', { cause: error });

/** True once the lock is held; false if `signal` aborted first. */
async function waitForLock(client: pg.PoolClient, key: string, signal: AbortSignal | undefined) {
  for (let delayMs = FIRST_RETRY_DELAY_MS; ; delayMs = Math.min(delayMs * 2, MAX_RETRY_DELAY_MS)) {
    if (signal?.aborted) return false;
    const { rows } = await client.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock($1::bigint) AS locked',
      [key],
    );
    if (rows[0]?.locked === true) return true;
    // Rejects (with the abort reason) when `signal` aborts; the loop head then returns false.
    await sleep(delayMs, undefined, signal === undefined ? {} : { signal }).catch(() => undefined);
  }
}

/** True if the session released the lock; false if that is unknown (the query failed). */
async function unlock(client: pg.PoolClient, key: string) {
  try {
    const { rows } = await client.query<{ unlocked: boolean }>(
      'SELECT pg_advisory_unlock($1::bigint) AS unlocked',
      [key],
    );
    return rows[0]?.unlocked === true;
  } catch {
    return false;
  }
}
