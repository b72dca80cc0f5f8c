import {
  approvalDecisionRecord,
  approvalRequestRecord,
  type ConversationMessage,
  toolIntentRecord,
} from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { toDisplayMessages } from './to-display-messages.js';

const at = '2026-11-28T10:00:00.000Z';
const call = {
  id: 'call_1',
  type: 'function' as const,
  function: { name: 'deploy', arguments: '{"target":"prod"}' },
};
const ref = { assistantMessageId: 'a1', callIndex: 0, toolCallId: 'call_1', toolName: 'deploy' };
let seq = 0;
const stored = (message: ConversationMessage): ConversationMessage => ({ ...message, seq: ++seq });

const user = stored({ id: 'u1', role: 'user', createdAt: at, content: 'Ship it' });
const assistant = stored({ id: 'a1', role: 'assistant', createdAt: at, content: null, tool_calls: [call] });
const request = stored(
  approvalRequestRecord(
    { createdAt: at },
    { ...ref, input: { target: 'prod' }, askedOf: 'any', expiresAt: at },
  ),
);
const decision = stored(
  approvalDecisionRecord(
    { createdAt: at },
    { requestId: request.id, outcome: 'approve', decidedBy: 'caller:alice', decidedAt: at },
  ),
);
const intent = stored(
  toolIntentRecord(
    { createdAt: at },
    { ...ref, attempt: 1, input: { target: 'prod' }, idempotent: false, owner: 'p' },
  ),
);
const result = stored({
  id: 'a1.r0',
  role: 'tool',
  createdAt: at,
  tool_call_id: 'call_1',
  content: 'deployed',
});

const executions = (log: ConversationMessage[]) =>
  toDisplayMessages(log).filter((message) => message.partType === 'tool_execution');

describe('the display view of the ledger', () => {
  it('shows a call waiting for its approval, then decided, running and done; never a record itself', () => {
    const waiting = toDisplayMessages([user, assistant, request]);
    expect(waiting.map((message) => message.partType ?? message.role)).toEqual(['user', 'tool_execution']);
    expect(waiting[1]?.toolExecution).toMatchObject({
      status: 'awaiting_approval',
      approval: { id: request.id, askedOf: 'any', expiresAt: at },
      summary: 'deploy waits for approval',
    });
    expect(waiting[1]?.content).toBe('deploy waits for approval');
    expect(executions([user, assistant, request, decision])[0]?.toolExecution).toMatchObject({
      status: 'unfinished',
      approval: { outcome: 'approve', decidedBy: 'caller:alice' },
    });
    const done = executions([user, assistant, request, decision, intent, result]);
    expect(done).toHaveLength(1);
    expect(done[0]?.toolExecution).toMatchObject({
      output: 'deployed',
      approval: { id: request.id, outcome: 'approve' },
    });
    expect(done[0]?.toolExecution?.status).toBeUndefined();
  });

  it('shows the input a person edited and the reason of a denial', () => {
    const edited = stored(
      approvalDecisionRecord(
        { createdAt: at },
        {
          requestId: request.id,
          outcome: 'edit',
          input: { target: 'staging' },
          decidedBy: 'local',
          decidedAt: at,
        },
      ),
    );
    const [shown] = executions([user, assistant, request, edited, intent, result]);
    expect(shown?.toolExecution?.input).toEqual({ target: 'staging' });
    const denied = stored(
      approvalDecisionRecord(
        { createdAt: at },
        { requestId: request.id, outcome: 'deny', reason: 'freeze week', decidedBy: 'local', decidedAt: at },
      ),
    );
    expect(executions([user, assistant, request, denied])[0]?.toolExecution?.approval).toMatchObject({
      outcome: 'deny',
      reason: 'freeze week',
    });
  });

  it('drops records about a call that is not waiting here (answered, another branch)', () => {
    const stray = stored(
      approvalRequestRecord(
        { createdAt: at },
        { ...ref, assistantMessageId: 'other', input: {}, askedOf: 'any' },
      ),
    );
    const shown = toDisplayMessages([user, assistant, result, stray, decision]);
    expect(shown.map((message) => message.partType ?? message.role)).toEqual(['user', 'tool_execution']);
  });
});
