import assert from 'node:assert/strict';
import { assertConsecutive, rejectsWithCode } from '../assert-store.js';
import type { ConformanceCase } from '../conformance-case.js';
import {
  assistantText,
  assistantToolCalls,
  toolResult,
  toolTurn,
  userMessage,
  withoutSeq,
} from '../test-messages.js';

export const appendLoadCases: ConformanceCase[] = [
  {
    name: 'append assigns consecutive seqs from 1 and load returns the messages as stored',
    async run({ open }) {
      const store = await open();
      const first = await store.append('c1', [userMessage('m1', 'hello')]);
      assert.deepEqual(first.seqs, [1], 'the first append gets seq 1');
      const turn = toolTurn('t1', 2);
      const second = await store.append('c1', turn);
      assert.deepEqual(second.seqs, [2, 3, 4], 'the next append continues at seq 2');
      assert.deepEqual(second.messages.map(withoutSeq), turn, 'append returns the messages as given');
      assert.deepEqual(
        second.messages.map((message) => message.seq),
        [2, 3, 4],
        'each returned message carries its seq',
      );
      const loaded = await store.load('c1');
      assert.deepEqual(
        loaded,
        [...first.messages, ...second.messages],
        'load returns every message as append returned it',
      );
    },
  },
  {
    name: 'a stored seq is the store’s, not the caller’s, and order is seq even with equal timestamps',
    async run({ open }) {
      const store = await open();
      const messages = [userMessage('a', 'one'), assistantText('b', 'two'), userMessage('c', 'three')];
      const result = await store.append(
        'c1',
        messages.map((message) => ({ ...message, seq: 99 })),
      );
      assertConsecutive(result.seqs, 1);
      assert.deepEqual(
        (await store.load('c1')).map((message) => message.id),
        ['a', 'b', 'c'],
        "load orders by seq, not by the caller's seq or timestamps",
      );
    },
  },
  {
    name: 'load of an unknown conversation is empty; an empty append writes nothing',
    async run({ open }) {
      const store = await open();
      assert.deepEqual(await store.load('nobody'), [], 'an unknown conversation loads empty');
      assert.deepEqual(
        await store.append('nobody', []),
        { seqs: [], messages: [] },
        'an empty append returns no seqs and no messages',
      );
      assert.deepEqual(await store.load('nobody'), [], 'an empty append writes nothing');
      assert.equal(
        (await store.listConversations()).conversations.length,
        0,
        'an empty append creates no conversation',
      );
    },
  },
  {
    name: 'load honours fromSeq, toSeq, limit and direction',
    async run({ open }) {
      const store = await open();
      for (let index = 1; index <= 10; index++)
        await store.append('c1', [userMessage(`m${index}`, `#${index}`)]);
      const seqsOf = async (options: Parameters<typeof store.load>[1]) =>
        (await store.load('c1', options)).map((message) => message.seq);
      assert.deepEqual(await seqsOf({ fromSeq: 4, toSeq: 6 }), [4, 5, 6], 'fromSeq 4, toSeq 6');
      assert.deepEqual(await seqsOf({ fromSeq: 8 }), [8, 9, 10], 'fromSeq 8 to the end');
      assert.deepEqual(await seqsOf({ limit: 2 }), [1, 2], 'limit 2 from the start');
      assert.deepEqual(
        await seqsOf({ direction: 'backward', limit: 3 }),
        [10, 9, 8],
        'backward, limit 3: the newest first',
      );
      assert.deepEqual(
        await seqsOf({ direction: 'backward', toSeq: 5, limit: 2 }),
        [5, 4],
        'backward from toSeq 5, limit 2',
      );
      assert.deepEqual(await seqsOf({ fromSeq: 11 }), [], 'fromSeq past the end is empty');
      assert.deepEqual(await seqsOf({ limit: 0 }), [], 'limit 0 is empty');
    },
  },
  {
    name: 'paging with fromSeq and limit visits every message once',
    async run({ open }) {
      const store = await open();
      await store.append(
        'c1',
        Array.from({ length: 25 }, (_, index) => userMessage(`m${index}`, `#${index}`)),
      );
      const seen: number[] = [];
      let fromSeq = 1;
      for (;;) {
        const page = await store.load('c1', { fromSeq, limit: 7 });
        if (page.length === 0) break;
        seen.push(...page.map((message) => message.seq ?? 0));
        fromSeq = (page.at(-1)?.seq ?? 0) + 1;
      }
      assertConsecutive(seen, 1);
      assert.equal(seen.length, 25, 'paging visits all 25 messages');
    },
  },
  {
    name: 'bad load options fail with INVALID_ARGUMENT',
    async run({ open }) {
      const store = await open();
      await rejectsWithCode(store.load('c1', { limit: -1 }), 'INVALID_ARGUMENT');
      await rejectsWithCode(store.load('c1', { fromSeq: 1.5 }), 'INVALID_ARGUMENT');
      await rejectsWithCode(store.load('c1', { direction: 'sideways' as 'forward' }), 'INVALID_ARGUMENT');
    },
  },
  {
    name: 'a batch with one invalid message writes nothing (INVALID_MESSAGE)',
    async run({ open }) {
      const store = await open();
      await store.append('c1', [userMessage('m1', 'kept')]);
      const broken = { ...toolResult('t1', 'call-1', 'lost'), tool_call_id: undefined };
      await rejectsWithCode(
        store.append('c1', [assistantToolCalls('a1', ['call-1']), broken]),
        'INVALID_MESSAGE',
      );
      assert.deepEqual(
        (await store.load('c1')).map((message) => message.id),
        ['m1'],
        'only the message before the refused batch is stored',
      );
      assert.deepEqual(
        (await store.append('c1', [userMessage('m2', 'next')])).seqs,
        [2],
        'the next append continues at seq 2: the refused batch used no seq',
      );
    },
  },
  {
    name: 'conversations are independent: seqs, loads and deletes do not leak between them',
    async run({ open }) {
      const store = await open();
      await store.append('a', [userMessage('a1', 'in a')]);
      await store.append('b', [userMessage('b1', 'in b'), userMessage('b2', 'in b')]);
      assert.deepEqual(
        (await store.append('a', [userMessage('a2', 'in a')])).seqs,
        [2],
        "conversation a's seqs are not moved by b's appends",
      );
      assert.equal(await store.deleteConversation('b'), true, 'deleting conversation b reports it existed');
      assert.deepEqual(
        (await store.load('a')).map((message) => message.id),
        ['a1', 'a2'],
        'conversation a keeps its messages after b is deleted',
      );
    },
  },
  {
    name: 'fields a newer version wrote survive the round trip',
    async run({ open }) {
      const store = await open();
      const message = { ...userMessage('m1', 'hi'), futureField: { nested: [1, 'two', null] } };
      await store.append('c1', [message]);
      const [loaded] = await store.load('c1');
      assert.deepEqual(
        (loaded as unknown as typeof message).futureField,
        message.futureField,
        'an unknown field survives append and load',
      );
    },
  },
  {
    name: 'settleDurableWrites, where a store has it, may be called at any moment: appends in flight land as before',
    async run({ open }) {
      const store = await open();
      // The runtime calls it on every event it streams, whatever the store is doing.
      let settling = true;
      const settle = () => {
        store.settleDurableWrites?.();
        if (settling) setImmediate(settle);
      };
      settle();
      const appends = Array.from({ length: 20 }, (_, index) => {
        const pending = store.append(`c${index % 4}`, [userMessage(`m${index}`, `hello ${index}`)]);
        store.settleDurableWrites?.();
        return pending;
      });
      const results = await Promise.all(appends);
      settling = false;
      // Appends to one conversation at once may land in any order (a database's connections race for
      // it): each lands once, and a load gives them in the order of the seqs they got.
      for (let conversation = 0; conversation < 4; conversation++) {
        const landed = results
          .filter((_, index) => index % 4 === conversation)
          .flatMap((result) => result.messages)
          .sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
        // Five appends of one message each: one seq each, none twice, none skipped.
        assertConsecutive(
          landed.map((message) => message.seq),
          1,
        );
        assert.deepEqual(
          (await store.load(`c${conversation}`)).map((message) => message.id),
          landed.map((message) => message.id),
          `c${conversation} holds each message once, in seq order`,
        );
      }
    },
  },
];
