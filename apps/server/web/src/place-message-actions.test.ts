import type { ConversationMessage } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { placeMessageActions } from './place-message-actions.js';

const createdAt = '2026-11-28T10:00:00.000Z';
const at = (seq: number, fields: Partial<ConversationMessage>): ConversationMessage => ({
  id: `m${seq}`,
  seq,
  createdAt,
  role: 'user',
  content: `message ${seq}`,
  ...fields,
});

function placed(messages: ConversationMessage[]) {
  const calls: string[] = [];
  const actions = placeMessageActions(messages, {
    busy: false,
    edit: (seq, text) => calls.push(`edit ${seq} ${text}`),
    regenerate: (seq) => calls.push(`regenerate ${seq}`),
  });
  const offered = actions.map((action) =>
    ['edit', 'regenerate', 'retry'].filter((name) => action[name as keyof typeof action] !== undefined),
  );
  return { actions, offered, calls };
}

describe('placeMessageActions', () => {
  it('lets every text user message be edited and the last answer be regenerated, answering its question', () => {
    const { actions, offered, calls } = placed([
      at(1, {}),
      at(2, { role: 'assistant' }),
      at(3, {}),
      at(4, { role: 'assistant', partType: 'tool_execution' }),
      at(6, { role: 'assistant' }),
    ]);
    expect(offered).toEqual([['edit'], [], ['edit'], [], ['regenerate']]);
    actions[4]?.regenerate?.();
    actions[0]?.edit?.('changed');
    expect(calls).toEqual(['regenerate 3', 'edit 1 changed']);
  });

  it('offers retry on a failure that ends the conversation, and no edit of a message with attachments', () => {
    const { actions, offered, calls } = placed([
      at(1, { content: [{ type: 'text', text: 'see this' }] }),
      at(2, { role: 'assistant' }),
      at(3, {}),
      at(4, { role: 'assistant', partType: 'error', errorCode: 'LLM_UNAVAILABLE' }),
    ]);
    expect(offered).toEqual([[], ['regenerate'], ['edit'], ['retry']]);
    actions[3]?.retry?.();
    expect(calls).toEqual(['regenerate 3']);
  });
});
