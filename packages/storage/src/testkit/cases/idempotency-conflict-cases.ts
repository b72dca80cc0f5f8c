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
      assert.deepEqual(retry, first, "the retried append returns the first append's result");
      assert.equal((await store.load('c1')).length, 5, 'the retried append writes nothing more');
      // The same key in another conversation is a different append.
      assert.deepEqual(
        (await store.append('c2', turn, { idempotencyKey: 'turn-1' })).seqs,
        [1, 2, 3],
        'the same key in another conversation is a different append',
      );
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
      assert.equal((await store.load('c1')).length, 1, 'the conflicting append writes nothing');
    },
  },
  {
    name: 'expectedSeq: the right one appends, a stale one is STORE_CONFLICT and writes nothing',
    async run({ open }) {
      const store = await open();
      assert.deepEqual(
        (await store.append('c1', [userMessage('m1', 'a')], { expectedSeq: 0 })).seqs,
        [1],
        'expectedSeq 0 appends to an empty conversation',
      );
      assert.deepEqual(
        (await store.append('c1', [userMessage('m2', 'b')], { expectedSeq: 1 })).seqs,
        [2],
        'expectedSeq 1 appends after one message',
      );
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
        'the stale appends wrote nothing',
      );
      assert.deepEqual(await store.load('c2'), [], 'a stale expectedSeq creates no conversation');
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
      assert.equal(
        results.filter((result) => result.status === 'fulfilled').length,
        1,
        'exactly one racing append with the same expectedSeq succeeds',
      );
      assert.equal((await store.load('c1')).length, 2, "one message before the race plus the winner's");
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
      assert.deepEqual(await store.load('c1'), [], 'refused options write nothing');
    },
  },
];
