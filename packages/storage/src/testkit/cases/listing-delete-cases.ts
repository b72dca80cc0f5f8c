import assert from 'node:assert/strict';
import { listAll, rejectsWithCode } from '../assert-store.js';
import type { ConformanceCase } from '../conformance-case.js';
import { assistantText, assistantToolCalls, toolResult, toolTurn, userMessage } from '../test-messages.js';

export const listingDeleteCases: ConformanceCase[] = [
  {
    name: 'an append racing a delete never leaves a message whose offloaded output is gone',
    async run({ open }) {
      const writer = await open();
      const deleter = writer.capabilities.concurrentInstances ? await open() : writer;
      for (let round = 0; round < 20; round++) {
        await Promise.allSettled([
          writer.append('race', [
            assistantToolCalls(`a${round}`, [`call-${round}`]),
            toolResult(`t${round}`, `call-${round}`, 'r'.repeat(60 * 1024)),
          ]),
          deleter.deleteConversation('race'),
        ]);
        for (const message of await writer.load('race')) {
          if (message.fullOutputPath !== undefined) {
            assert.equal((await writer.getBlob(message.fullOutputPath)).length, 60 * 1024, `round ${round}`);
          }
        }
      }
    },
  },
  {
    name: 'listConversations reports createdAt, updatedAt, messageCount, lastSeq and a title',
    async run({ open }) {
      const store = await open();
      const before = new Date().toISOString();
      await store.append('c1', [
        assistantText('m0', 'Welcome!'),
        userMessage('m1', '  Fix the\nflaky   test  '),
      ]);
      await store.append('c1', toolTurn('t', 2));
      const after = new Date().toISOString();
      const { conversations, nextCursor } = await store.listConversations();
      assert.equal(nextCursor, undefined, 'one page holds every conversation: no nextCursor');
      assert.equal(conversations.length, 1, 'one conversation listed');
      const [summary] = conversations;
      assert.equal(summary?.id, 'c1', "the listed conversation's id");
      assert.equal(summary?.messageCount, 5, 'messageCount counts every message');
      assert.equal(summary?.lastSeq, 5, "lastSeq is the last message's seq");
      assert.equal(
        summary?.title,
        'Fix the flaky test',
        'the title is the first user message, whitespace collapsed',
      );
      assert.ok(
        summary && summary.createdAt >= before && summary.createdAt <= summary.updatedAt,
        'createdAt is within the test and no later than updatedAt',
      );
      assert.ok(summary && summary.updatedAt <= after, 'updatedAt is no later than the end of the test');
    },
  },
  {
    name: 'listing is most recently updated first and the cursor visits every conversation once',
    async run({ open }) {
      const store = await open();
      for (let index = 0; index < 23; index++)
        await store.append(`c${index}`, [userMessage('m', `chat ${index}`)]);
      // Touch one so it moves to the front: once the clock has moved past the last append's time.
      const latest = (await store.listConversations({ limit: 1 })).conversations[0]?.updatedAt ?? '';
      while (new Date().toISOString() <= latest) await new Promise((resolve) => setImmediate(resolve));
      await store.append('c3', [userMessage('m2', 'again')]);
      const first = await store.listConversations({ limit: 10 });
      assert.equal(first.conversations[0]?.id, 'c3', 'the most recently updated conversation comes first');
      assert.ok(first.nextCursor, 'a first page of a longer listing has a nextCursor');
      const all = await listAll(store, 10);
      assert.equal(all.length, 23, 'following the cursor lists all 23 conversations');
      assert.equal(
        new Set(all.map((summary) => summary.id)).size,
        23,
        'the cursor lists each conversation once',
      );
      for (let index = 1; index < all.length; index++) {
        assert.ok((all[index - 1]?.updatedAt ?? '') >= (all[index]?.updatedAt ?? ''), 'newest first');
      }
    },
  },
  {
    name: 'bad listing options fail with INVALID_ARGUMENT',
    async run({ open }) {
      const store = await open();
      await rejectsWithCode(store.listConversations({ limit: 0 }), 'INVALID_ARGUMENT');
      await rejectsWithCode(store.listConversations({ cursor: 'not-a-cursor' }), 'INVALID_ARGUMENT');
    },
  },
  {
    name: 'deleteConversation removes messages, listing entry and offloaded outputs; false when absent',
    async run({ open }) {
      const store = await open();
      const { messages } = await store.append('c1', [
        userMessage('m1', 'go'),
        assistantToolCalls('a1', ['call-1']),
        toolResult('t1', 'call-1', 'y'.repeat(60 * 1024)),
      ]);
      const ref = messages[2]?.fullOutputPath;
      assert.ok(ref, 'the large output was offloaded');
      await store.append('keep', [userMessage('k', 'stays')]);
      assert.equal(
        await store.deleteConversation('c1'),
        true,
        'deleting an existing conversation returns true',
      );
      assert.deepEqual(await store.load('c1'), [], 'a deleted conversation loads empty');
      assert.deepEqual(
        (await listAll(store)).map((summary) => summary.id),
        ['keep'],
        'a deleted conversation leaves the listing',
      );
      await rejectsWithCode(store.getBlob(ref), 'STORE_NOT_FOUND');
      assert.equal(
        await store.deleteConversation('c1'),
        false,
        'deleting an absent conversation returns false',
      );
      assert.deepEqual(
        (await store.append('c1', [userMessage('again', 'fresh start')])).seqs,
        [1],
        'a deleted conversation starts again at seq 1',
      );
      assert.equal((await store.load('keep')).length, 1, 'another conversation is untouched by the delete');
    },
  },
];
