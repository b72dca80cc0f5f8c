import { CairnError, KeyedSerialQueue } from '@cairn/core';
import pg from 'pg';
import { AdvisoryLockWaiters } from './advisory-lock-waiters.js';
import { ConnectionSlots } from './connection-slots.js';
import { runQueuedUnlessAborted } from './run-queued-unless-aborted.js';
import type { ConversationTurnLock } from './turn-lock.js';
import { withAdvisoryLock } from './with-advisory-lock.js';

export interface PostgresTurnLockOptions {
  connectionString: string;
  /**
   * Lock connections: the most conversations this instance can hold at once. Session advisory locks
   * belong to a connection, so each running turn (and each DELETE) keeps one for as long as it runs;
   * turns waiting for a conversation hold none. Size it to the server's `maxConcurrentTurns` (default
   * 64), or turns beyond it wait for a connection (then fail after `acquireTimeoutMs`). Opened on demand;
   * one more connection watches the conversations being waited for. Default 10.
   */
  maxConnections?: number;
  /**
   * How long a turn waits for a free lock connection (all of them holding running turns) before it fails
   * with `STORE_UNAVAILABLE` (503, retryable). Waiting for another turn of the same conversation is not
   * limited: abort it with the run's signal. Default 10 s.
   */
  acquireTimeoutMs?: number;
  /** How often waiting turns check whether their conversation was released. Default 100 ms. */
  pollIntervalMs?: number;
}

/**
 * Serialises turns across every server instance on one database with PostgreSQL session advisory locks
 * (see `withAdvisoryLock`). Runs on the same conversation are queued in-process first, so one instance
 * spends at most one connection per conversation, however many of its requests wait for it.
 */
export function createPostgresTurnLock(options: PostgresTurnLockOptions): ConversationTurnLock {
  const { connectionString } = options;
  const maxConnections = options.maxConnections ?? 10;
  const pool = new pg.Pool({
    connectionString,
    max: maxConnections,
    application_name: 'cairn-turn-lock',
    keepAlive: true,
    connectionTimeoutMillis: 10_000,
  });
  // An idle connection holds no lock; the pool drops it if it dies, and that must not crash the process.
  pool.on('error', () => {});
  const slots = new ConnectionSlots(maxConnections);
  const waiters = new AdvisoryLockWaiters({
    connectionString,
    pollIntervalMs: options.pollIntervalMs ?? 100,
  });
  const deps = { pool, slots, waiters, acquireTimeoutMs: options.acquireTimeoutMs ?? 10_000 };
  const queue = new KeyedSerialQueue();
  let closing: Promise<void> | undefined;
  return {
    run(conversationId, work, runOptions = {}) {
      const { signal } = runOptions;
      return runQueuedUnlessAborted(
        queue,
        conversationId,
        () => withAdvisoryLock(deps, conversationId, work, signal),
        signal,
      );
    },
    ready: () => waiters.check(),
    close() {
      closing ??= (async () => {
        slots.close(new CairnError('STORE_UNAVAILABLE', 'the turn lock is closed'));
        await Promise.all([waiters.close(), pool.end()]);
      })();
      return closing;
    },
  };
}
