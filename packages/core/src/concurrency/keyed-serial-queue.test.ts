import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeyedSerialQueue } from './keyed-serial-queue.js';

// A promise the test resolves when it wants (Promise.withResolvers needs Node 22).
function gate(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** A task that takes `count` turns of the event loop: durations without a clock. */
async function eventLoopTurns(count: number): Promise<void> {
  for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve));
}

describe('KeyedSerialQueue', () => {
  it('runs the tasks of one key one at a time, in order, whatever their durations', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom('a', 'b'), fc.nat(3)), { maxLength: 12 }),
        async (tasks) => {
          const queue = new KeyedSerialQueue();
          const running = new Map<string, number>();
          const order: string[] = [];
          await Promise.all(
            tasks.map(([key, delay], index) =>
              queue.run(key, async () => {
                running.set(key, (running.get(key) ?? 0) + 1);
                expect(running.get(key)).toBe(1);
                await eventLoopTurns(delay);
                order.push(`${key}${index}`);
                running.set(key, (running.get(key) ?? 0) - 1);
              }),
            ),
          );
          for (const key of ['a', 'b']) {
            const expected = tasks.flatMap(([taskKey], index) => (taskKey === key ? [`${key}${index}`] : []));
            expect(order.filter((entry) => entry.startsWith(key))).toEqual(expected);
          }
          // Keys with nothing queued are forgotten (a long-lived executor does not grow per
          // conversation); seen through the private map, as nothing else shows it.
          expect((queue as unknown as { tails: Map<string, unknown> }).tails.size).toBe(0);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('goes on after a failed task and passes results and failures through', async () => {
    const queue = new KeyedSerialQueue();
    const failed = queue.run('k', async () => {
      throw new Error('boom');
    });
    const next = queue.run('k', async () => 42);
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe(42);
  });

  it('tells whether a key is busy and how many keys are', async () => {
    const queue = new KeyedSerialQueue();
    const held = gate();
    const running = queue.run('a', () => held.promise);
    const waiting = queue.run('a', async () => undefined);
    expect([queue.has('a'), queue.has('b'), queue.size]).toEqual([true, false, 1]);
    held.resolve();
    await Promise.all([running, waiting]);
    expect([queue.has('a'), queue.size]).toEqual([false, 0]);
  });

  it('settles once every task queued so far has, failed ones included', async () => {
    const queue = new KeyedSerialQueue();
    const gates = [gate(), gate()] as const;
    const done: string[] = [];
    void queue.run('a', async () => {
      await gates[0].promise;
      done.push('a');
    });
    const failing = queue.run('b', async () => {
      await gates[1].promise;
      done.push('b');
      throw new Error('boom');
    });
    failing.catch(() => undefined);
    let settled = false;
    const all = queue.settled().then(() => (settled = true));
    gates[0].resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect([done, settled]).toEqual([['a'], false]);
    gates[1].resolve();
    await all;
    expect(done).toEqual(['a', 'b']);
    await expect(queue.settled()).resolves.toBeUndefined();
  });

  describe('with a signal', () => {
    it('rejects a queued task at once with the abort reason, skips it, keeps the order behind it, and leaves a started task alone', async () => {
      const queue = new KeyedSerialQueue();
      const controller = new AbortController();
      const held = gate();
      const started = gate();
      const log: string[] = [];
      // The holder has started when the signal aborts: the abort is its own business.
      const holder = queue.run(
        'a',
        async () => {
          started.resolve();
          await held.promise;
          log.push('holder');
        },
        { signal: controller.signal },
      );
      await started.promise;
      const waiter = queue.run('a', async () => log.push('waiter'), { signal: controller.signal });
      const after = queue.run('a', async () => log.push('after'));
      controller.abort(new Error('cancelled'));
      await expect(waiter).rejects.toThrow('cancelled');
      // Still held: the task behind the aborted one waits for the holder.
      expect([log, queue.size]).toEqual([[], 1]);
      held.resolve();
      await Promise.all([holder, after]);
      expect(log).toEqual(['holder', 'after']);
      expect(queue.size).toBe(0);
    });

    it('refuses an already aborted signal without queuing anything', async () => {
      const queue = new KeyedSerialQueue();
      const reason = new Error('gone');
      let ran = false;
      const run = queue.run(
        'a',
        async () => {
          ran = true;
        },
        { signal: AbortSignal.abort(reason) },
      );
      expect(queue.size).toBe(0);
      await expect(run).rejects.toBe(reason);
      expect(ran).toBe(false);
    });
  });
});
