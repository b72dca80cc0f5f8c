import { createGate, simulatedDelay } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import type { ConversationTurnLock } from '../turn-lock/turn-lock.js';
import { createIpcTurnLock } from './ipc-turn-lock.js';
import { simulatedLockCluster } from './test-support.js';

/** A turn of `lock` on `conversationId` that has started and holds it until `release()`. */
async function heldTurn(lock: ConversationTurnLock, conversationId: string, onEnd = () => {}) {
  const held = createGate();
  const started = createGate();
  const done = lock.run(conversationId, async () => {
    started.open();
    await held.promise;
    onEnd();
  });
  await started.promise;
  return { release: () => held.open(), done };
}

const kinds = (sent: ReturnType<typeof simulatedLockCluster>['sent'], workerId: number) =>
  sent.filter((entry) => entry.workerId === workerId).map((entry) => entry.message.cairn);

describe('createIpcTurnLock leases', () => {
  it("runs a worker's next turns of a conversation without asking the primary again", async () => {
    const { channel, sent } = simulatedLockCluster();
    const lock = createIpcTurnLock(channel(1));
    for (const turn of [1, 2, 3]) expect(await lock.run('c1', async () => turn)).toBe(turn);
    // Turns in a row on the same worker, and two at once: they wait for each other, not for the primary.
    const first = createGate();
    const both = Promise.all([
      lock.run('c1', () => first.promise.then(() => 'a')),
      lock.run('c1', async () => 'b'),
    ]);
    first.open();
    expect(await both).toEqual(['a', 'b']);
    expect(kinds(sent, 1)).toEqual(['lock-acquire']);
  });

  it('gives an unused lock back when another worker asks for it', async () => {
    const { channel, sent } = simulatedLockCluster();
    const [one, two] = [createIpcTurnLock(channel(1)), createIpcTurnLock(channel(2))];
    await one.run('c1', async () => 'kept');
    // Worker 1 keeps the lock idle: worker 2 gets it only because the primary asks for it back.
    expect(await two.run('c1', async () => 'two')).toBe('two');
    expect(kinds(sent, 1)).toEqual(['lock-acquire', 'lock-release']);
    // Worker 2 now keeps it; worker 1 asks the primary again.
    expect(await one.run('c1', async () => 'one again')).toBe('one again');
    expect(kinds(sent, 1)).toEqual(['lock-acquire', 'lock-release', 'lock-acquire']);
    expect(kinds(sent, 2)).toEqual(['lock-acquire', 'lock-release']);
  });

  it("serves the worker that asked before this worker's own next turn", async () => {
    const { channel } = simulatedLockCluster();
    const [one, two] = [createIpcTurnLock(channel(1)), createIpcTurnLock(channel(2))];
    const log: string[] = [];
    const first = await heldTurn(one, 'c1', () => log.push('one:1'));
    const other = two.run('c1', async () => {
      log.push('two');
    });
    // The primary's request to give the lock back reaches worker 1 while its turn runs.
    await simulatedDelay(20);
    const next = one.run('c1', async () => {
      log.push('one:2');
    });
    first.release();
    await Promise.all([first.done, other, next]);
    expect(log).toEqual(['one:1', 'two', 'one:2']);
  });

  it('gives a lock back once unused for leaseIdleMs, and at close', async () => {
    const { channel, sent } = simulatedLockCluster();
    const lock = createIpcTurnLock(channel(1), { leaseIdleMs: 20 });
    await lock.run('c1', async () => undefined);
    await lock.run('c2', async () => undefined);
    expect(kinds(sent, 1)).toEqual(['lock-acquire', 'lock-acquire']);
    await simulatedDelay(60);
    expect(kinds(sent, 1)).toEqual(['lock-acquire', 'lock-acquire', 'lock-release', 'lock-release']);
    const kept = createIpcTurnLock(channel(2));
    await kept.run('c3', async () => undefined);
    await kept.close();
    expect(kinds(sent, 2)).toEqual(['lock-acquire', 'lock-release']);
  });

  it('hands a lock on to the next waiting turn even if that turn was aborted', async () => {
    const { channel, sent } = simulatedLockCluster();
    const lock = createIpcTurnLock(channel(1), { leaseIdleMs: 20 });
    const first = await heldTurn(lock, 'c1');
    const controller = new AbortController();
    const aborted = lock.run('c1', async () => 'never', { signal: controller.signal });
    controller.abort(new Error('client went away'));
    await expect(aborted).rejects.toMatchObject({ code: 'LLM_ABORTED' });
    first.release();
    await first.done;
    // Nothing holds it now: it still goes back when unused.
    await simulatedDelay(60);
    expect(kinds(sent, 1)).toEqual(['lock-acquire', 'lock-release']);
  });

  it('honours a request for the lock back that arrives together with its grant', {
    timeout: 5_000,
  }, async () => {
    const { channel, sent } = simulatedLockCluster();
    // Worker 2 would keep an unused lock for a minute: only the request for it back can free it in time.
    const [one, two] = [
      createIpcTurnLock(channel(1)),
      createIpcTurnLock(channel(2), { leaseIdleMs: 60_000 }),
    ];
    const first = await heldTurn(one, 'c1');
    const log: string[] = [];
    const other = two.run('c1', async () => {
      log.push('two');
    });
    await simulatedDelay(20);
    const again = one.run('c1', async () => {
      log.push('one again');
    });
    await simulatedDelay(20);
    // Worker 1 gives its lock back: the primary grants worker 2 and, with worker 1 waiting behind,
    // asks for it back in the same breath. Worker 2 must give it back after its turn, not keep it.
    first.release();
    await Promise.all([first.done, other, again]);
    expect(log).toEqual(['two', 'one again']);
    expect(kinds(sent, 2)).toEqual(['lock-acquire', 'lock-release']);
  });
});
