import type { Pool, PoolClient } from 'pg';

/** How long a transaction waits for a row or advisory lock. */
const LOCK_TIMEOUT_MS = 10_000;

/**
 * Runs `work` in one transaction on one pooled client: COMMIT when it returns, ROLLBACK when it
 * throws, and the client always goes back to the pool (destroyed if ROLLBACK failed, since its
 * connection is then in an unknown state). READ COMMITTED explicitly: every statement after an
 * advisory lock must see what the previous lock holder committed, whatever the server's default
 * isolation is.
 */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let result: T;
  try {
    await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
    // A holder that hangs (a paused instance) must not block every other writer and pool client
    // for ever: lock waits give up with 55P03, a retryable STORE_UNAVAILABLE.
    await client.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT_MS}ms'`);
    result = await work(client);
    await client.query('COMMIT');
  } catch (error) {
    const rollbackError = await client.query('ROLLBACK').then(
      () => undefined,
      (failure: unknown) => (failure instanceof Error ? failure : new Error(String(failure))),
    );
    client.release(rollbackError);
    throw error;
  }
  client.release();
  return result;
}

/** Takes the transaction-scoped advisory lock named `name` (hashed to 64 bits by the server). */
export async function lockTransaction(client: PoolClient, name: string): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [name]);
}
