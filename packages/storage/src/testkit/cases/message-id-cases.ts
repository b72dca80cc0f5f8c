import assert from 'node:assert/strict';
import { rejectsWithCode } from '../assert-store.js';
import type { ConformanceCase } from '../conformance-case.js';
import { toolTurn, userMessage } from '../test-messages.js';

const ids = (messages: readonly { id: string }[]) => messages.map((message) => message.id);

export const messageIdCases: ConformanceCase[] = [
  {
    name: 'a message id already in the conversation is STORE_CONFLICT and the batch writes nothing',
    async run({ open }) {
      const store = await open();
      await store.append('c1', [userMessage('u1', 'first')]);
      const before = await store.load('c1');
      await rejectsWithCode(store.append('c1', [userMessage('u1', 'other content')]), 'STORE_CONFLICT');
      // A batch with one taken id is refused whole: its new message is not stored either.
      await rejectsWithCode(
        store.append('c1', [userMessage('u2', 'new'), userMessage('u1', 'again')]),
        'STORE_CONFLICT',
      );
      await rejectsWithCode(
        store.append('c1', [userMessage('u1', 'first')], { expectedSeq: 1 }),
        'STORE_CONFLICT',
      );
      assert.deepEqual(await store.load('c1'), before, 'the conflicting batch wrote nothing');
      assert.deepEqual(
        (await store.append('c1', [userMessage('u2', 'new')])).seqs,
        [2],
        'the next append continues at seq 2',
      );
    },
  },
  {
    name: 'an exact repeat is STORE_CONFLICT without a key, and the first result with the first append’s key',
    async run({ open }) {
      const store = await open();
      const turn = toolTurn('t', 2);
      const first = await store.append('c1', turn, { idempotencyKey: 'turn-1' });
      await rejectsWithCode(store.append('c1', turn), 'STORE_CONFLICT');
      await rejectsWithCode(store.append('c1', turn, { idempotencyKey: 'turn-2' }), 'STORE_CONFLICT');
      assert.deepEqual(
        await store.append('c1', turn, { idempotencyKey: 'turn-1' }),
        first,
        "an exact repeat with the first append's key returns the first result",
      );
      assert.deepEqual(ids(await store.load('c1')), ids(turn), 'the repeat wrote no second copy');
    },
  },
  {
    name: 'a batch holding one id twice is INVALID_ARGUMENT and writes nothing',
    async run({ open }) {
      const store = await open();
      await rejectsWithCode(
        store.append('c1', [userMessage('u1', 'a'), userMessage('u2', 'b'), userMessage('u1', 'c')]),
        'INVALID_ARGUMENT',
      );
      assert.deepEqual(await store.load('c1'), [], 'a batch holding an id twice writes nothing');
      assert.deepEqual(
        (await store.listConversations()).conversations,
        [],
        'a batch holding an id twice creates no conversation',
      );
    },
  },
  {
    name: 'message ids are per conversation, and a deleted conversation’s ids are free again',
    async run({ open }) {
      const store = await open();
      await store.append('c1', [userMessage('u1', 'in c1')]);
      assert.deepEqual(
        (await store.append('c2', [userMessage('u1', 'in c2')])).seqs,
        [1],
        'the same id in another conversation is accepted',
      );
      assert.equal(
        await store.deleteConversation('c1'),
        true,
        'deleting the conversation reports it existed',
      );
      assert.deepEqual(
        (await store.append('c1', [userMessage('u1', 'a new c1')])).seqs,
        [1],
        "a deleted conversation's ids are free again",
      );
      assert.deepEqual(
        (await store.load('c1')).map((message) => message.content),
        ['a new c1'],
        'the new conversation holds only the new message',
      );
    },
  },
  {
    name: 'ids stay taken after reopening the store',
    requires: ['persistent'],
    async run({ open }) {
      const first = await open();
      for (let index = 0; index < 50; index++) await first.append('c1', [userMessage(`u${index}`, 'x')]);
      await first.close();
      const second = await open();
      await rejectsWithCode(second.append('c1', [userMessage('u0', 'again')]), 'STORE_CONFLICT');
      await rejectsWithCode(second.append('c1', [userMessage('u49', 'again')]), 'STORE_CONFLICT');
      assert.deepEqual(
        (await second.append('c1', [userMessage('u50', 'x')])).seqs,
        [51],
        'a reopened store continues at seq 51',
      );
    },
  },
  {
    name: 'appends racing with the same message id: exactly one lands',
    async run({ open }) {
      const a = await open();
      const b = a.capabilities.concurrentInstances ? await open() : a;
      await a.append('c1', [userMessage('start', 'x')]);
      for (let round = 0; round < 10; round++) {
        const results = await Promise.allSettled([
          a.append('c1', [userMessage(`r${round}`, 'from a')]),
          b.append('c1', [userMessage(`r${round}`, 'from b')]),
          b.append('c1', [userMessage(`r${round}`, 'from b again')]),
        ]);
        assert.equal(results.filter((result) => result.status === 'fulfilled').length, 1, `round ${round}`);
        for (const result of results) {
          if (result.status === 'rejected')
            await rejectsWithCode(Promise.reject(result.reason), 'STORE_CONFLICT');
        }
      }
      const loaded = await a.load('c1');
      assert.deepEqual(
        ids(loaded),
        ['start', ...Array.from({ length: 10 }, (_, round) => `r${round}`)],
        'exactly one of the racing appends of each id landed, in round order',
      );
    },
  },
];
