import { randomBytes } from 'node:crypto';
import { createGate, simulatedDelay } from '@cairn/testing';
import pg from 'pg';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import { advisoryLockHolder } from '../../test/support/advisory-lock-holder.js';
import { advisoryLockKey } from './advisory-lock-key.js';
import { createPostgresTurnLock } from './postgres-turn-lock.js';
import type { ConversationTurnLock } from './turn-lock.js';

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
    const holding = createGate();
    const held = createGate();
    const holder = other.run(busy, async () => {
      held.open();
      await holding.promise;
    });
    await held.promise;
    const waiters = Array.from({ length: 5 }, (_, index) => lock.run(busy, async () => index));
    // With 2 connections, this only gets one if the 5 waiters share a single one.
    expect(await lock.run(freshConversationId(), async () => 'free')).toBe('free');
    holding.open();
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
  it('survives its connection dropping in the middle of a turn (no uncaught error), tells work, and the next turn runs', async () => {
    const lock = openLock(1);
    const conversationId = freshConversationId();
    const admin = await adminClient();
    let reason: unknown;
    const result = await lock.run(conversationId, async (lockLost) => {
      expect(lockLost.aborted).toBe(false);
      await admin.query('SELECT pg_terminate_backend($1)', [await advisoryLockHolder(admin, conversationId)]);
      // The turn notices through the signal, however long it would otherwise run. The lock's own
      // connection can hear of its end before the admin's query returns: then it has already aborted.
      if (!lockLost.aborted) {
        await new Promise((resolve) => lockLost.addEventListener('abort', resolve, { once: true }));
      }
      reason = lockLost.reason;
      return 'stopped';
    });
    expect(result).toBe('stopped');
    expect(reason).toMatchObject({
      code: 'LLM_ABORTED',
      details: { conversationId, reason: 'turn-lock-lost' },
    });
    expect(await lock.run(conversationId, async (lockLost) => lockLost.aborted)).toBe(false);
    expect(await advisoryLockHolder(admin, conversationId)).toBeUndefined();
  });

  it('waits for conversations held elsewhere without holding a connection: a free one still runs', async () => {
    const poolSize = 2;
    const other = openLock(poolSize + 3);
    const lock = openLock(poolSize);
    const busy = Array.from({ length: poolSize + 2 }, freshConversationId);
    const holders = busy.map((id) => held(other, id));
    await Promise.all(holders.map((holder) => holder.started));
    const ran: string[] = [];
    const waiters = busy.map((id) =>
      lock.run(id, async () => {
        ran.push(id);
        return id;
      }),
    );
    // Before the fix this waited for a connection the waiters held, and failed after 10 s.
    expect(await lock.run(freshConversationId(), async () => 'free')).toBe('free');
    expect(ran).toEqual([]);
    for (const holder of holders) holder.finish();
    expect(await Promise.all(waiters)).toEqual(busy);
  });

  it('lets a wait for a lock connection be aborted, and times it out (STORE_UNAVAILABLE)', async () => {
    const lock = createPostgresTurnLock({ connectionString: url, maxConnections: 1, acquireTimeoutMs: 300 });
    onTestFinished(() => lock.close());
    const holder = held(lock, freshConversationId());
    await holder.started;
    let ran = false;
    const work = async () => {
      ran = true;
    };

    const controller = new AbortController();
    const aborted = lock.run(freshConversationId(), work, { signal: controller.signal });
    // The run waits a while for a lock connection, and is aborted while it waits.
    await simulatedDelay(50);
    controller.abort(new Error('client went away'));
    await expect(aborted).rejects.toMatchObject({ code: 'LLM_ABORTED' });

    const timedOut = lock.run(freshConversationId(), work);
    await expect(timedOut).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
      retryable: true,
      details: { reason: 'turn-lock-connections-busy' },
    });
    expect(ran).toBe(false);

    holder.finish();
    await holder.done;
    // Neither gave up wait kept the connection: it serves the next turn.
    expect(await lock.run(freshConversationId(), async () => 'next')).toBe('next');
  });

  it('is ready while its database answers, and not after close', async () => {
    const lock = createPostgresTurnLock({ connectionString: url });
    await expect(lock.ready?.()).resolves.toBeUndefined();
    await lock.close();
    await expect(lock.ready?.()).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
  });
});

/** A run of `id` on `lock` that holds it until `finish()`. */
function held(lock: ConversationTurnLock, id: string) {
  const started = createGate();
  const finished = createGate();
  const done = lock.run(id, async () => {
    started.open();
    await finished.promise;
  });
  return { started: started.promise, finish: () => finished.open(), done };
}

async function adminClient() {
  const admin = new pg.Client({ connectionString: inject('databaseUrl') });
  await admin.connect();
  onTestFinished(() => admin.end());
  return admin;
}
