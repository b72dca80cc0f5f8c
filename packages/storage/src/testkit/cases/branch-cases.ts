import assert from 'node:assert/strict';
import { activeBranch, type ConversationStore } from '@cairn/core';
import type { ConformanceCase } from '../conformance-case.js';
import { assistantText, userMessage } from '../test-messages.js';

const seqsOf = (messages: readonly { seq?: number | undefined }[]) => messages.map((message) => message.seq);

async function checkBranches(store: ConversationStore, what: string): Promise<void> {
  const log = await store.load('c1');
  assert.deepEqual(seqsOf(log), [1, 2, 3, 4, 5, 6], `${what}: the log keeps every message`);
  assert.equal(log[4]?.branchFrom, 3, `${what}: the branch start keeps branchFrom`);
  assert.deepEqual(log[1]?.usage, { inputTokens: 12, outputTokens: 3 }, `${what}: an answer keeps its usage`);
  assert.deepEqual(seqsOf(activeBranch(log)), [1, 2, 5, 6], `${what}: the active branch leaves out 3 and 4`);
  const [start] = await store.load('c1', { fromSeq: 5, limit: 1 });
  assert.equal(start?.branchFrom, 3, `${what}: a partial load keeps branchFrom`);
}

export const branchCases: ConformanceCase[] = [
  {
    name: 'an edit is a branch: branchFrom and usage come back as appended, the replaced messages stay',
    async run({ open }) {
      const store = await open();
      await store.append('c1', [
        userMessage('u1', 'Capital of France?'),
        { ...assistantText('a1', 'Paris.'), usage: { inputTokens: 12, outputTokens: 3 } },
      ]);
      await store.append('c1', [userMessage('u2', 'And Germany?'), assistantText('a2', 'Berlin.')]);
      await store.append('c1', [
        { ...userMessage('u3', 'And Italy?'), branchFrom: 3 },
        assistantText('a3', 'Rome.'),
      ]);
      await checkBranches(store, 'as appended');
      const { conversations } = await store.listConversations();
      assert.equal(conversations[0]?.messageCount, 6, 'the listing counts the replaced messages too');
      if (!store.capabilities.persistent) return;
      await store.close();
      await checkBranches(await open(), 'after a reopen');
    },
  },
];
