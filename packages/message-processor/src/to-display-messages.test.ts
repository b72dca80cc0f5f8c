import type { ConversationMessage } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { toDisplayMessages } from './to-display-messages.js';

const createdAt = '2026-11-28T10:00:00.000Z';
const message = (seq: number, fields: Partial<ConversationMessage>): ConversationMessage => ({
  id: `m${seq}`,
  seq,
  createdAt,
  role: 'user',
  content: `message ${seq}`,
  ...fields,
});

describe('toDisplayMessages', () => {
  it('shows the active branch: an edited message and what followed it are left out', () => {
    const log = [
      message(1, {}),
      message(2, { role: 'assistant' }),
      message(3, {}),
      message(4, { role: 'assistant' }),
      message(5, { content: 'message 3, edited', branchFrom: 3 }),
      message(6, { role: 'assistant' }),
    ];
    expect(toDisplayMessages(log).map((shown) => [shown.seq, shown.content])).toEqual([
      [1, 'message 1'],
      [2, 'message 2'],
      [5, 'message 3, edited'],
      [6, 'message 6'],
    ]);
  });

  it('leaves out a tool call made on a replaced branch, merged result and all', () => {
    const log = [
      message(1, {}),
      message(2, {
        role: 'assistant',
        content: null,
        partType: 'tool_call',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{}' } }],
      }),
      message(3, { role: 'tool', tool_call_id: 'c1', toolName: 'read_file', partType: 'tool_result' }),
      message(4, { content: 'message 1', branchFrom: 1 }),
      message(5, { role: 'assistant' }),
    ];
    expect(toDisplayMessages(log).map((shown) => [shown.seq, shown.role])).toEqual([
      [4, 'user'],
      [5, 'assistant'],
    ]);
  });
});
