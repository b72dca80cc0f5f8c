import { randomBytes } from 'node:crypto';
import { createGate, simulatedDelay } from '@cairn/testing';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import { createIpcTurnLock } from '../cluster/ipc-turn-lock.js';
import { simulatedLockCluster } from '../cluster/test-support.js';
import { createInProcessTurnLock } from './in-process-turn-lock.js';
import { createPostgresTurnLock } from './postgres-turn-lock.js';
import type { ConversationTurnLock } from './turn-lock.js';

/** Two locks that must exclude each other: one instance in-process, two "servers" on PostgreSQL. */
type LockPair = () => [ConversationTurnLock, ConversationTurnLock];

const implementations: [string, LockPair][] = [
  [
    'in-process',
    () => {
      const lock = createInProcessTurnLock();
      return [lock, lock];
    },
  ],
  [
    'cluster (two workers, the primary over IPC)',
    () => {
      const { channel } = simulatedLockCluster();
      return [createIpcTurnLock(channel(1)), createIpcTurnLock(channel(2))];
    },
  ],
  [
    'PostgreSQL',
    () => {
      const open = () => {
        const lock = createPostgresTurnLock({ connectionString: inject('databaseUrl') });
        onTestFinished(() => lock.close());
        return lock;
      };
      return [open(), open()];
    },
  ],
];

// Advisory locks are database-wide and test files run in parallel: a fresh conversation id per test.
const freshConversationId = () => `conv-${randomBytes(6).toString('hex')}`;

/** A `work` that records its start and end and holds the lock until `finish()`. */
function heldWork(name: string, log: string[]) {
  const started = createGate();
  const finished = createGate();
  const work = async () => {
    log.push(`${name}:start`);
    started.open();
    await finished.promise;
    log.push(`${name}:end`);
    return name;
  };
  return { work, started: started.promise, finish: () => finished.open() };
}

describe.each(implementations)('%s turn lock', (_name, openPair) => {
  it('serialises runs on the same conversation', async () => {
    const [a, b] = openPair();
    const id = freshConversationId();
    const log: string[] = [];
    const first = heldWork('a', log);
    const second = heldWork('b', log);
    const runA = a.run(id, first.work);
    await first.started;
    const runB = b.run(id, second.work);
    // A holds the conversation a while: that B stays out all that time is what is tested.
    await simulatedDelay(300);
    expect(log).toEqual(['a:start']);
    first.finish();
    await second.started;
    second.finish();
    expect(await Promise.all([runA, runB])).toEqual(['a', 'b']);
    expect(log).toEqual(['a:start', 'a:end', 'b:start', 'b:end']);
  });

  it('runs different conversations in parallel', async () => {
    const [a, b] = openPair();
    const log: string[] = [];
    const held = heldWork('a', log);
    const runA = a.run(freshConversationId(), held.work);
    await held.started;
    expect(await b.run(freshConversationId(), async () => 'b')).toBe('b');
    held.finish();
    expect(await runA).toBe('a');
  });

  it('rejects with LLM_ABORTED and skips work when aborted while waiting', async () => {
    const [a, b] = openPair();
    const id = freshConversationId();
    const held = heldWork('a', []);
    const runA = a.run(id, held.work);
    await held.started;
    const controller = new AbortController();
    let ran = false;
    const waiting = b.run(
      id,
      async () => {
        ran = true;
      },
      { signal: controller.signal },
    );
    // B waits a while for A's lock, and is aborted while it waits.
    await simulatedDelay(100);
    controller.abort(new Error('client went away'));
    await expect(waiting).rejects.toMatchObject({ code: 'LLM_ABORTED', details: { conversationId: id } });
    held.finish();
    await runA;
    expect(await b.run(id, async () => 'after')).toBe('after');
    expect(ran).toBe(false);
  });

  it('does not run work for an already aborted signal', async () => {
    const [lock] = openPair();
    let ran = false;
    const run = lock.run(
      freshConversationId(),
      async () => {
        ran = true;
      },
      { signal: AbortSignal.abort() },
    );
    await expect(run).rejects.toMatchObject({ code: 'LLM_ABORTED' });
    expect(ran).toBe(false);
  });

  it('releases the conversation when work throws', async () => {
    const [a, b] = openPair();
    const id = freshConversationId();
    await expect(
      a.run(id, async () => {
        throw new Error('turn failed');
      }),
    ).rejects.toThrow('turn failed');
    expect(await b.run(id, async () => 'next')).toBe('next');
  });
});
