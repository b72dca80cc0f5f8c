import assert from 'node:assert/strict';
import type { ConversationStore, ListConversationsOptions } from '@cairn/core';
import { listAll, rejectsWithCode } from '../assert-store.js';
import type { ConformanceCase } from '../conformance-case.js';
import { assistantText, titleMessage, toolResult, userMessage } from '../test-messages.js';

async function idsFound(store: ConversationStore, search: string): Promise<string[]> {
  const options: ListConversationsOptions = { search, limit: 1000 };
  return (await store.listConversations(options)).conversations.map((summary) => summary.id).sort();
}

// Each conversation holds its words in one place only: its title, a later user message, an
// assistant message, or a text part.
async function seed(store: ConversationStore): Promise<void> {
  await store.append('by-title', [userMessage('m1', 'Plan the Oslo trip'), assistantText('a1', 'Sure.')]);
  await store.append('by-user', [
    userMessage('m1', 'Hello'),
    assistantText('a1', 'Hi!'),
    userMessage('m2', 'My WIDGET broke'),
  ]);
  await store.append('by-assistant', [
    userMessage('m1', 'Ideas?'),
    assistantText('a1', 'Try the Frobnicator'),
  ]);
  await store.append('by-part', [
    {
      id: 'm1',
      role: 'user',
      createdAt: '2026-01-01T00:00:00.000Z',
      content: [
        { type: 'text', text: 'first part' },
        { type: 'text', text: 'a Quux inside' },
      ],
    },
  ]);
  await store.append('literal', [userMessage('m1', 'Sale: 50% off_items at C:\\temp (a.*b)')]);
  await store.append('near-literal', [userMessage('m1', 'Sale: 50 percent offXitems at C:/temp (aXXb)')]);
  await store.append('tool-only', [
    userMessage('m1', 'Read it'),
    {
      ...assistantText('a1', ''),
      content: null,
      tool_calls: [{ id: 'call-1', type: 'function', function: { name: 'read_file', arguments: '{}' } }],
    },
    toolResult('t1', 'call-1', 'secret zanzibar output'),
  ]);
}

export const searchCases: ConformanceCase[] = [
  {
    name: 'search finds a conversation by its title, user text, assistant text or a text part, case-insensitively',
    requires: ['search'],
    async run({ open }) {
      const store = await open();
      await seed(store);
      assert.deepEqual(await idsFound(store, 'oslo TRIP'), ['by-title'], 'by title');
      assert.deepEqual(await idsFound(store, 'widget'), ['by-user'], 'by a later user message');
      assert.deepEqual(await idsFound(store, 'frobNICATOR'), ['by-assistant'], 'by assistant text');
      assert.deepEqual(await idsFound(store, 'quux'), ['by-part'], 'by a text part of array content');
      assert.deepEqual(await idsFound(store, 'zanzibar'), [], 'tool output is not searched');
      assert.deepEqual(await idsFound(store, 'no such words'), [], 'no match: an empty page');
      const none = await store.listConversations({ search: 'no such words' });
      assert.equal(none.nextCursor, undefined, 'no match: no nextCursor');
    },
  },
  {
    name: 'search is a plain substring: %, _, \\ and regex characters match only themselves',
    requires: ['search'],
    async run({ open }) {
      const store = await open();
      await seed(store);
      assert.deepEqual(await idsFound(store, '50%'), ['literal'], '% is literal');
      assert.deepEqual(await idsFound(store, 'off_items'), ['literal'], '_ is literal');
      assert.deepEqual(await idsFound(store, 'C:\\temp'), ['literal'], '\\ is literal');
      assert.deepEqual(await idsFound(store, 'a.*b'), ['literal'], 'regex characters are literal');
      assert.deepEqual(await idsFound(store, '%'), ['literal'], 'a lone % matches only a %');
    },
  },
  {
    name: 'search pages with nextCursor like the plain listing, most recently updated first',
    requires: ['search'],
    async run({ open }) {
      const store = await open();
      for (let index = 0; index < 7; index++) {
        await store.append(`hit-${index}`, [userMessage('m1', `needle ${index}`)]);
        await store.append(`miss-${index}`, [userMessage('m1', `hay ${index}`)]);
      }
      const expected = (await listAll(store))
        .map((summary) => summary.id)
        .filter((id) => id.startsWith('hit-'));
      const found: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 10; page++) {
        const result = await store.listConversations({
          search: 'NEEDLE',
          limit: 3,
          ...(cursor ? { cursor } : {}),
        });
        assert.ok(result.conversations.length <= 3, 'a page holds at most limit rows');
        found.push(...result.conversations.map((summary) => summary.id));
        cursor = result.nextCursor;
        if (cursor === undefined) break;
      }
      assert.deepEqual(found, expected, 'every match once, in the listing order, across pages');
    },
  },
  {
    name: 'a renamed conversation is found by its new title',
    requires: ['search'],
    async run({ open }) {
      const store = await open();
      await store.append('c1', [userMessage('m1', 'Untitled thoughts')]);
      await store.append('c2', [userMessage('m1', 'Something else')]);
      assert.deepEqual(await idsFound(store, 'zebra'), [], 'not found before the rename');
      await store.append('c1', [titleMessage('r1', 'Zebra Notes')]);
      assert.deepEqual(await idsFound(store, 'ZEBRA'), ['c1'], 'found by its new title');
      const [summary] = (await store.listConversations({ search: 'zebra' })).conversations;
      assert.equal(summary?.title, 'Zebra Notes', 'the row carries the new title');
    },
  },
  {
    name: 'a conversation holding NUL or a lone surrogate does not break a search of the others',
    requires: ['search'],
    async run({ open }) {
      const store = await open();
      await store.append('odd', [userMessage('m1', 'odd \u0000 text \ud800 needle')]);
      await store.append('plain', [userMessage('m1', 'a plain needle')]);
      const found = await idsFound(store, 'needle');
      // A backend may be unable to search text its database cannot read as JSON (PostgreSQL):
      // the others are found all the same.
      assert.ok(found.includes('plain'), 'the plain conversation is found');
      const odd = (await idsFound(store, 'odd')).join();
      assert.ok(
        odd === '' || odd === 'odd',
        'a search of its own words fails no call and finds nothing else',
      );
    },
  },
  {
    name: 'a bad search fails with INVALID_ARGUMENT',
    requires: ['search'],
    async run({ open }) {
      const store = await open();
      await rejectsWithCode(store.listConversations({ search: '' }), 'INVALID_ARGUMENT');
      await rejectsWithCode(store.listConversations({ search: 'x'.repeat(201) }), 'INVALID_ARGUMENT');
    },
  },
];
