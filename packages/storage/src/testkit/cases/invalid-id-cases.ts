import assert from 'node:assert/strict';
import { listAll, rejectsWithCode } from '../assert-store.js';
import type { ConformanceCase } from '../conformance-case.js';
import { userMessage } from '../test-messages.js';

/** Ids that must never reach a path or a query. */
export const UNSAFE_IDS = [
  '../x',
  '/abs',
  'a\0b',
  '..',
  '.',
  'x'.repeat(200),
  '',
  'a/b',
  'a\\b',
  '.hidden',
  'white space',
];

export const invalidIdCases: ConformanceCase[] = [
  {
    name: 'unsafe conversation ids are refused with INVALID_ID by every method',
    async run({ open }) {
      const store = await open();
      for (const id of UNSAFE_IDS) {
        await rejectsWithCode(store.append(id, [userMessage('m', 'x')]), 'INVALID_ID');
        await rejectsWithCode(store.load(id), 'INVALID_ID');
        await rejectsWithCode(store.deleteConversation(id), 'INVALID_ID');
      }
      assert.deepEqual(await listAll(store), [], 'no conversation was created for an unsafe id');
    },
  },
  {
    name: 'a large tool output whose message id is unsafe is refused before anything is written',
    async run({ open }) {
      const store = await open();
      await rejectsWithCode(
        store.append('c1', [
          {
            id: '../../evil',
            role: 'tool',
            tool_call_id: 'call-1',
            content: 'x'.repeat(60 * 1024),
            createdAt: '2026-01-01T00:00:00.000Z',
          },
        ]),
        'INVALID_ID',
      );
      assert.deepEqual(await store.load('c1'), [], 'nothing was written for the refused message');
    },
  },
];
