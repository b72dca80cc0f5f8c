import {
  approvalDecisionRecord,
  approvalRequestRecord,
  type ConversationMessage,
  type OpenAIToolCall,
} from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { lastCalls, owesResume } from './last-calls.js';

const at = '2026-11-28T10:00:00.000Z';
let seq = 0;
const stored = (message: ConversationMessage): ConversationMessage => ({ ...message, seq: ++seq });
const call = (id: string): OpenAIToolCall => ({
  id,
  type: 'function',
  function: { name: 'run_command', arguments: '{"command":"make"}' },
});
const ref = { assistantMessageId: 'a1', toolName: 'run_command' };

const user = stored({ id: 'u1', role: 'user', createdAt: at, content: 'Build it' });
const answer = stored({
  id: 'a1',
  role: 'assistant',
  createdAt: at,
  content: null,
  tool_calls: [call('c0'), call('c1')],
});
const request = stored(
  approvalRequestRecord(
    { createdAt: at },
    { ...ref, callIndex: 0, toolCallId: 'c0', input: { command: 'make' }, askedOf: 'local' },
  ),
);
const decision = stored(
  approvalDecisionRecord(
    { createdAt: at },
    { requestId: request.id, outcome: 'approve', decidedBy: 'local', decidedAt: at },
  ),
);
const result = (callId: string) =>
  stored({ id: `r-${callId}`, role: 'tool', createdAt: at, tool_call_id: callId, content: 'built' });

describe('lastCalls and owesResume', () => {
  it('finds nothing without calls, or once something was said after them', () => {
    expect(lastCalls([user])).toEqual({ messages: [], unsettled: [] });
    const later = stored({ id: 'u2', role: 'user', createdAt: at, content: 'Never mind' });
    expect(lastCalls([user, answer, request, later]).unsettled).toEqual([]);
    expect(owesResume([user, answer, request, later])).toBe(false);
  });

  it('owes nothing while every open call waits for a decision', () => {
    const waiting = [user, answer, request, result('c1')];
    expect(lastCalls(waiting).unsettled.map((open) => open.call.id)).toEqual(['c0']);
    expect(lastCalls(waiting).messages).toEqual(waiting.slice(1));
    expect(owesResume(waiting)).toBe(false);
  });

  it('owes a resume for a call decided but not run, or one that never got its result', () => {
    expect(owesResume([user, answer, request, decision, result('c1')])).toBe(true);
    expect(owesResume([user, answer, request])).toBe(true);
    expect(owesResume([user, answer, request, decision, result('c0'), result('c1')])).toBe(false);
  });
});
