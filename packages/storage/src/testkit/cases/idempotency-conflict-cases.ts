import assert from 'node:assert/strict';
import { rejectsWithCode } from '../assert-store.js';
import type { ConformanceCase } from '../conformance-case.js';
import { toolTurn, userMessage } from '../test-messages.js';

export const idempotencyConflictCases: ConformanceCase[] = [
  {
    name: 'a retried append with the same idempotencyKey returns the first result and writes nothing',
    async run({ open }) {
      const store = await open();
      await store.append('c1', [userMessage('m0', 'first')]);
      const turn = toolTurn('t', 2);
      const first = await store.append('c1', turn, { idempotencyKey: 'turn-1' });
      await store.append('c1', [userMessage('m9', 'later')]);
      const retry = await store.append('c1', turn, { idempotencyKey: 'turn-1' });
      assert.deepEqual(retry, first);
      assert.equal((await store.load('c1')).length, 5);
      // The same key in another conversation is a different append.
      assert.deepEqual((await store.append('c2', turn, { idempotencyKey: 'turn-1' })).seqs, [1, 2, 3]);
    },
  },
  {
    name: 'an idempotencyKey reused for different messages is STORE_CONFLICT',
    async run({ open }) {
      const store = await open();
      await store.append('c1', [userMessage('m1', 'a')], { idempotencyKey: 'k' });
      await rejectsWithCode(
        store.append('c1', [userMessage('m2', 'b')], { idempotencyKey: 'k' }),
        'STORE_CONFLICT',
      );
      assert.equal((await store.load('c1')).length, 1);
    },
  },
  {
    name: 'expectedSeq: the right one appends, a stale one is STORE_CONFLICT and writes nothing',
    async run({ open }) {
      const store = await open();
      assert.deepEqual((await store.append('c1', [userMessage('m1', 'a')], { expectedSeq: 0 })).seqs, [1]);
      assert.deepEqual((await store.append('c1', [userMessage('m2', 'b')], { expectedSeq: 1 })).seqs, [2]);
      await rejectsWithCode(
        store.append('c1', [userMessage('m3', 'c')], { expectedSeq: 1 }),
        'STORE_CONFLICT',
      );
      await rejectsWithCode(
        store.append('c2', [userMessage('m3', 'c')], { expectedSeq: 4 }),
        'STORE_CONFLICT',
      );
      assert.deepEqual(
        (await store.load('c1')).map((message) => message.id),
        ['m1', 'm2'],
      );
      assert.deepEqual(await store.load('c2'), []);
    },
  },
  {
    name: 'racing optimistic appends on one expectedSeq: exactly one wins',
    async run({ open }) {
      const store = await open();
      await store.append('c1', [userMessage('m0', 'start')]);
      const results = await Promise.allSettled(
        Array.from({ length: 5 }, (_, index) =>
          store.append('c1', [userMessage(`r${index}`, 'race')], { expectedSeq: 1 }),
        ),
      );
      assert.equal(results.filter((result) => result.status === 'fulfilled').length, 1);
      assert.equal((await store.load('c1')).length, 2);
    },
  },
  {
    name: 'bad append options fail with INVALID_ARGUMENT',
    async run({ open }) {
      const store = await open();
      await rejectsWithCode(
        store.append('c1', [userMessage('m', 'x')], { expectedSeq: -1 }),
        'INVALID_ARGUMENT',
      );
      await rejectsWithCode(
        store.append('c1', [userMessage('m', 'x')], { idempotencyKey: '' }),
        'INVALID_ARGUMENT',
      );
      assert.deepEqual(await store.load('c1'), []);
    },
  },
];
