import assert from 'node:assert/strict';
import { assertConsecutive, rejectsWithCode } from '../assert-store.js';
import type { ConformanceCase } from '../conformance-case.js';
import { toolTurn, userMessage } from '../test-messages.js';

export const instanceCases: ConformanceCase[] = [
  {
    name: 'a closed store refuses work with STORE_UNAVAILABLE',
    async run({ open }) {
      const store = await open();
      await store.close();
      await rejectsWithCode(store.append('c1', [userMessage('m', 'x')]), 'STORE_UNAVAILABLE');
      await rejectsWithCode(store.load('c1'), 'STORE_UNAVAILABLE');
    },
  },
  {
    name: 'data survives closing and reopening the store',
    requires: ['persistent'],
    async run({ open }) {
      const first = await open();
      await first.append('c1', [userMessage('m1', 'remember me')]);
      await first.append('c1', toolTurn('t', 2), { idempotencyKey: 'k1' });
      await first.putBlob('notes/n', 'kept');
      const before = await first.load('c1');
      await first.close();
      const second = await open();
      assert.deepEqual(
        await second.load('c1'),
        before,
        'a reopened store loads what the first instance wrote',
      );
      assert.deepEqual(
        (await second.append('c1', toolTurn('t', 2), { idempotencyKey: 'k1' })).seqs,
        [2, 3, 4],
        'a reopened store appends at the next seqs',
      );
      assert.deepEqual(
        (await second.append('c1', [userMessage('m2', 'next')])).seqs,
        [5],
        'the idempotency key is remembered across reopening',
      );
      assert.equal(
        Buffer.from(await second.getBlob('notes/n')).toString(),
        'kept',
        'a blob survives reopening',
      );
      assert.equal(
        (await second.listConversations()).conversations[0]?.messageCount,
        5,
        'the listing survives reopening',
      );
    },
  },
  {
    name: 'two store instances racing on one conversation lose nothing and keep each writer’s order',
    requires: ['concurrentInstances'],
    async run({ open }) {
      const [a, b] = [await open(), await open()];
      const write = async (store: typeof a, name: string) => {
        for (let index = 0; index < 100; index++)
          await store.append('c1', [userMessage(`${name}-${index}`, name)]);
      };
      await Promise.all([write(a, 'a'), write(b, 'b'), a.append('c1', toolTurn('turn', 3))]);
      const loaded = await b.load('c1');
      assert.equal(loaded.length, 204, "both writers' 100 appends and the 4-message turn are all stored");
      assertConsecutive(
        loaded.map((message) => message.seq),
        1,
      );
      for (const name of ['a', 'b']) {
        const ids = loaded.filter((message) => message.content === name).map((message) => message.id);
        assert.deepEqual(
          ids,
          Array.from({ length: 100 }, (_, index) => `${name}-${index}`),
          "each writer's messages keep its order",
        );
      }
      const turnStart = loaded.findIndex((message) => message.id === 'turn-a');
      assert.deepEqual(
        loaded.slice(turnStart, turnStart + 4).map((message) => message.id),
        ['turn-a', 'turn-t0', 'turn-t1', 'turn-t2'],
        'an atomic batch is never interleaved',
      );
      assert.equal(
        (await a.listConversations()).conversations[0]?.messageCount,
        204,
        'the listing counts every raced message',
      );
    },
  },
  {
    name: 'two instances racing with the same expectedSeq: exactly one wins',
    requires: ['concurrentInstances'],
    async run({ open }) {
      const [a, b] = [await open(), await open()];
      await a.append('c1', [userMessage('m0', 'start')]);
      for (let round = 1; round <= 10; round++) {
        const results = await Promise.allSettled([
          a.append('c1', [userMessage(`a${round}`, 'a')], { expectedSeq: round }),
          b.append('c1', [userMessage(`b${round}`, 'b')], { expectedSeq: round }),
        ]);
        assert.equal(results.filter((result) => result.status === 'fulfilled').length, 1, `round ${round}`);
      }
      assert.equal((await b.load('c1')).length, 11, 'the start message and one winner per round');
    },
  },
];
