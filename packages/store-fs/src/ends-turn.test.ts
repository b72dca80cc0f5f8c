import {
  approvalDecisionRecord,
  approvalRequestRecord,
  type ConversationMessage,
  toolIntentRecord,
} from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { endsTurn } from './ends-turn.js';

const at = '2026-11-28T10:00:00.000Z';
const ref = { assistantMessageId: 'a1', callIndex: 0, toolCallId: 'c1', toolName: 'deploy' };
const calling: ConversationMessage = {
  id: 'a1',
  role: 'assistant',
  createdAt: at,
  content: null,
  tool_calls: [{ id: 'c1', type: 'function', function: { name: 'deploy', arguments: '{}' } }],
};
const result: ConversationMessage = {
  id: 'r1',
  role: 'tool',
  createdAt: at,
  tool_call_id: 'c1',
  content: 'ok',
};

describe('endsTurn (what durability "turn" syncs)', () => {
  it('syncs an answer and an error, not a call or a result mid-turn', () => {
    expect(endsTurn([{ id: 'x', role: 'assistant', createdAt: at, content: 'Done.' }])).toBe(true);
    expect(endsTurn([{ id: 'e', role: 'assistant', createdAt: at, content: 'x', partType: 'error' }])).toBe(
      true,
    );
    expect(endsTurn([calling])).toBe(false);
    expect(endsTurn([result])).toBe(false);
  });

  it('syncs every ledger record: a decision or an intent is acted on as soon as it is stored', () => {
    const request = approvalRequestRecord({ createdAt: at }, { ...ref, input: {}, askedOf: 'any' });
    const decision = approvalDecisionRecord(
      { createdAt: at },
      { requestId: request.id, outcome: 'approve', decidedBy: 'local', decidedAt: at },
    );
    const intent = toolIntentRecord(
      { createdAt: at },
      { ...ref, attempt: 1, input: {}, idempotent: false, owner: 'p' },
    );
    for (const record of [request, decision, intent]) expect(endsTurn([record])).toBe(true);
    // A new message's settlement: the superseded decision, the result, then the user's words.
    expect(endsTurn([decision, result, { id: 'u', role: 'user', createdAt: at, content: 'Stop' }])).toBe(
      true,
    );
  });
});
