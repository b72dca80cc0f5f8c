import { KeyedSerialQueue } from '@cairn/core';
import pg from 'pg';
import { runQueuedUnlessAborted } from './run-queued-unless-aborted.js';
import type { ConversationTurnLock } from './turn-lock.js';
import { withAdvisoryLock } from './with-advisory-lock.js';

export interface PostgresTurnLockOptions {
  connectionString: string;
  /** Pool size: the most conversations this instance can hold (or wait for) at once. Default 10. */
  maxConnections?: number;
}

/**
 * Serialises turns across every server instance on one database with PostgreSQL session advisory locks
 * (see `withAdvisoryLock`). Runs on the same conversation are queued in-process first, so one instance
 * spends at most one connection per conversation, however many of its requests wait for it.
 */
export function createPostgresTurnLock(options: PostgresTurnLockOptions): ConversationTurnLock {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    application_name: 'cairn-turn-lock',
    keepAlive: true,
    connectionTimeoutMillis: 10_000,
  });
  // An idle connection holds no lock; the pool drops it if it dies, and that must not crash the process.
  pool.on('error', () => {});
  const queue = new KeyedSerialQueue();
  let closing: Promise<void> | undefined;
  return {
    run(conversationId, work, runOptions = {}) {
      const { signal } = runOptions;
      return runQueuedUnlessAborted(
        queue,
        conversationId,
        () => withAdvisoryLock(pool, conversationId, work, signal),
        signal,
      );
    },
    close() {
      closing ??= pool.end();
      return closing;
    },
  };
}
