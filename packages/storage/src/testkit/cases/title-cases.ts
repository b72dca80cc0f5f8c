import assert from 'node:assert/strict';
import type { ConversationStore } from '@cairn/core';
import type { ConformanceCase } from '../conformance-case.js';
import { assistantText, titleMessage, userMessage } from '../test-messages.js';

async function titleOf(store: ConversationStore, conversationId: string): Promise<string | undefined> {
  const { conversations } = await store.listConversations({ limit: 1000 });
  return conversations.find((summary) => summary.id === conversationId)?.title;
}

export const titleCases: ConformanceCase[] = [
  {
    name: 'a title record renames the conversation; the latest of two wins, also after a reopen',
    async run({ open }) {
      const store = await open();
      await store.append('c1', [userMessage('m1', 'What should I pack?'), assistantText('a1', 'Socks.')]);
      await store.append('c1', [titleMessage('r1', 'Packing list')]);
      assert.equal(await titleOf(store, 'c1'), 'Packing list', 'the listing shows the new title');
      await store.append('c1', [titleMessage('r2', 'Trip to Oslo')]);
      await store.append('c1', [userMessage('m2', 'And shoes?')]);
      assert.equal(await titleOf(store, 'c1'), 'Trip to Oslo', 'the latest title record wins');
      if (!store.capabilities.persistent) return;
      await store.close();
      assert.equal(await titleOf(await open(), 'c1'), 'Trip to Oslo', 'the rename survives a reopen');
    },
  },
  {
    name: 'in one append, the last title record wins over the others and over a user message',
    async run({ open }) {
      const store = await open();
      await store.append('c1', [
        titleMessage('r1', 'First name'),
        userMessage('m1', 'Hello there'),
        titleMessage('r2', 'Second name'),
      ]);
      assert.equal(await titleOf(store, 'c1'), 'Second name');
    },
  },
  {
    name: 'a title record is not a first user message: the derived title stays the same rule',
    async run({ open }) {
      const store = await open();
      // Renamed before any user message: the user message that follows does not replace the name.
      await store.append('named', [titleMessage('r1', 'Named early')]);
      await store.append('named', [userMessage('m1', 'Later question')]);
      assert.equal(await titleOf(store, 'named'), 'Named early', 'a later user message keeps the rename');
      // Never renamed: the first user message gives the title, as before.
      await store.append('plain', [assistantText('a0', 'Welcome'), userMessage('m1', '  Fix   the build ')]);
      await store.append('plain', [userMessage('m2', 'Another question')]);
      assert.equal(await titleOf(store, 'plain'), 'Fix the build', 'derived from the first user message');
      const [record] = await store.load('named', { limit: 1 });
      assert.equal(record?.partType, 'title', 'the title record is stored as appended');
      assert.equal(record?.content, 'Named early');
    },
  },
];
