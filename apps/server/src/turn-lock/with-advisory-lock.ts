import { CairnError, definedFields } from '@cairn/core';
import type pg from 'pg';
import { advisoryLockKey } from './advisory-lock-key.js';
import type { AdvisoryLockWaiters } from './advisory-lock-waiters.js';
import type { ConnectionSlots } from './connection-slots.js';
import { turnAbortedError } from './turn-aborted-error.js';

export interface AdvisoryLockDependencies {
  /** The connections that hold locks; never more checked out than `slots` allows. */
  pool: pg.Pool;
  slots: ConnectionSlots;
  waiters: AdvisoryLockWaiters;
  /** How long to wait for a slot (every connection busy holding a turn) before `STORE_UNAVAILABLE`. */
  acquireTimeoutMs: number;
}

/**
 * Runs `work` holding the session advisory lock of `conversationId` on a pooled connection.
 *
 * A connection is only held while the lock is: an attempt takes one (waiting for a free slot, which
 * `signal` and `acquireTimeoutMs` end), tries `pg_try_advisory_lock`, and on failure gives it back and
 * waits in `waiters` (a shared connection watching the awaited keys) until the key looks free, then tries
 * again. So turns waiting for conversations other instances hold never use up the pool. Trying rather
 * than blocking in `pg_advisory_lock` also makes aborting simple: it just stops waiting. There is no FIFO
 * order between instances.
 *
 * Session advisory locks belong to the connection that took them, so the one that got the lock stays
 * checked out until `work` ends. If it fails or ends meanwhile (a restart, a failover,
 * `pg_terminate_backend`), the lock is gone: the `lockLost` signal given to `work` aborts, and `work`
 * should stop. Ending the session releases its advisory locks, so whenever the unlock cannot be confirmed
 * (or a lock query failed midway) the connection is destroyed rather than returned to the pool.
 */
export async function withAdvisoryLock<T>(
  deps: AdvisoryLockDependencies,
  conversationId: string,
  work: (lockLost: AbortSignal) => Promise<T>,
  signal: AbortSignal | undefined,
): Promise<T> {
  const key = advisoryLockKey(conversationId);
  for (;;) {
    const lease = await checkout(deps, conversationId, signal);
    let locked: boolean;
    try {
      locked = await tryLock(lease.client, key);
    } catch (error) {
      lease.release(false);
      throw unavailable(error);
    }
    if (!locked) {
      lease.release(true);
      await deps.waiters.waitUntilFree(key, conversationId, signal);
      continue;
    }
    if (signal?.aborted) {
      lease.release(await unlock(lease.client, key));
      throw turnAbortedError(conversationId, signal.reason);
    }
    try {
      return await work(lease.lost);
    } finally {
      lease.release(!lease.lost.aborted && (await unlock(lease.client, key)));
    }
  }
}

interface Lease {
  client: pg.PoolClient;
  /** Aborts (with `lockLostError`) when the connection fails or ends while checked out. */
  lost: AbortSignal;
  /** Gives the connection back (`reusable`: its session holds no lock), or destroys it. Once. */
  release(reusable: boolean): void;
}

async function checkout(
  deps: AdvisoryLockDependencies,
  conversationId: string,
  signal: AbortSignal | undefined,
): Promise<Lease> {
  await deps.slots.acquire({
    conversationId,
    timeoutMs: deps.acquireTimeoutMs,
    ...definedFields({ signal }),
  });
  // The pool never queues (it has as many connections as there are slots), but opening a connection
  // can take a while: an abort meanwhile answers at once and gives the connection back when it comes.
  const connecting = deps.pool.connect();
  let client: pg.PoolClient;
  try {
    client = await untilAborted(connecting, conversationId, signal);
  } catch (error) {
    if (CairnError.is(error, 'LLM_ABORTED')) {
      connecting.then(
        (late) => {
          late.release();
          deps.slots.release();
        },
        () => deps.slots.release(),
      );
      throw error;
    }
    deps.slots.release();
    throw unavailable(error);
  }
  const lost = new AbortController();
  // A checked-out client has no pool error listener: without this one, the connection dropping
  // (a restart, a failover, pg_terminate_backend) would be an uncaught exception.
  const onError = (error: Error) => lost.abort(lockLostError(conversationId, error));
  const onEnd = () => lost.abort(lockLostError(conversationId, new Error('connection ended')));
  client.on('error', onError);
  client.on('end', onEnd);
  let released = false;
  return {
    client,
    lost: lost.signal,
    release(reusable) {
      if (released) return;
      released = true;
      client.off('error', onError);
      client.off('end', onEnd);
      const destroy = !reusable || lost.signal.aborted;
      // A destroyed connection may still report its end as an error: nobody is listening for it any more.
      if (destroy) client.on('error', () => {});
      client.release(destroy);
      deps.slots.release();
    },
  };
}

function untilAborted<T>(promise: Promise<T>, conversationId: string, signal: AbortSignal | undefined) {
  if (signal === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(turnAbortedError(conversationId, signal.reason));
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

// The database failing under the lock is an outage (503), not an internal error; the driver's words stay in `cause`.
const unavailable = (error: unknown) =>
  new CairnError('STORE_UNAVAILABLE', 'the turn lock database is unavailable', { cause: error });

/**
 * Why `lockLost` aborted: the session holding the lock ended, so the lock is no longer held. An abort
 * (`LLM_ABORTED`): what the turn ends with and stores when it stops for it.
 */
export function lockLostError(conversationId: string, cause: unknown): CairnError {
  return new CairnError(
    'LLM_ABORTED',
    'Aborted: the conversation turn lock was lost (the database session holding it ended)',
    { cause, details: { conversationId, reason: 'turn-lock-lost' } },
  );
}

async function tryLock(client: pg.PoolClient, key: string) {
  const { rows } = await client.query<{ locked: boolean }>(
    'SELECT pg_try_advisory_lock($1::bigint) AS locked',
    [key],
  );
  return rows[0]?.locked === true;
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
