import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import { advisoryLockKey } from './advisory-lock-key.js';
import { createPostgresTurnLock } from './postgres-turn-lock.js';

const freshConversationId = () => `conv-${randomBytes(6).toString('hex')}`;

describe('createPostgresTurnLock', () => {
  const url = inject('databaseUrl');

  function openLock(maxConnections?: number) {
    const lock = createPostgresTurnLock({
      connectionString: url,
      ...(maxConnections === undefined ? {} : { maxConnections }),
    });
    onTestFinished(() => lock.close());
    return lock;
  }

  it('queues same-conversation waiters in-process, so they do not use up the pool', async () => {
    const other = openLock();
    const lock = openLock(2);
    const busy = freshConversationId();
    let release = () => {};
    const holding = new Promise<void>((resolve) => {
      release = resolve;
    });
    let markHeld = () => {};
    const held = new Promise<void>((resolve) => {
      markHeld = resolve;
    });
    const holder = other.run(busy, async () => {
      markHeld();
      await holding;
    });
    await held;
    const waiters = Array.from({ length: 5 }, (_, index) => lock.run(busy, async () => index));
    // With 2 connections, this only gets one if the 5 waiters share a single one.
    expect(await lock.run(freshConversationId(), async () => 'free')).toBe('free');
    release();
    await holder;
    expect(await Promise.all(waiters)).toEqual([0, 1, 2, 3, 4]);
  });

  it('holds a PostgreSQL advisory lock on the conversation key while work runs, and none after', async () => {
    const lock = openLock();
    const id = freshConversationId();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    onTestFinished(() => admin.end());
    const isLockedElsewhere = async () => {
      const { rows } = await admin.query<{ free: boolean }>(
        'SELECT pg_try_advisory_lock($1::bigint) AS free',
        [advisoryLockKey(id)],
      );
      if (rows[0]?.free) await admin.query('SELECT pg_advisory_unlock($1::bigint)', [advisoryLockKey(id)]);
      return !rows[0]?.free;
    };
    expect(await lock.run(id, isLockedElsewhere)).toBe(true);
    expect(await isLockedElsewhere()).toBe(false);
  });

  it('closes idempotently', async () => {
    const lock = createPostgresTurnLock({ connectionString: url });
    expect(await lock.run(freshConversationId(), async () => 1)).toBe(1);
    await Promise.all([lock.close(), lock.close()]);
  });
  it('survives its connection dropping in the middle of a turn (no uncaught error), and the next turn runs', async () => {
    const lock = openLock(1);
    const conversationId = freshConversationId();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    onTestFinished(() => admin.end());
    const result = await lock.run(conversationId, async () => {
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'cairn-turn-lock' AND pid <> pg_backend_pid()",
      );
      // Give the client time to notice the dropped connection while the turn still runs.
      await new Promise((resolve) => setTimeout(resolve, 200));
      return 'finished';
    });
    expect(result).toBe('finished');
    expect(await lock.run(conversationId, async () => 'next')).toBe('next');
  });
});
