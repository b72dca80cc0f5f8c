import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeyedSerialQueue } from './keyed-serial-queue.js';

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
});
