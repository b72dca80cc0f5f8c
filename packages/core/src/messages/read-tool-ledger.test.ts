import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from './conversation-message.js';
import { isIncludedInContext, parseConversationMessage } from './conversation-message.js';
import {
  approvalDecisionRecord,
  approvalRequestRecord,
  isLedgerRecord,
  ledgerRecordIds,
  toolIntentRecord,
} from './ledger-records.js';
import { isApprovalExpired, readToolLedger } from './read-tool-ledger.js';
import { toOpenAIMessage } from './to-openai-message.js';

const at = '2026-11-28T10:00:00.000Z';
let seq = 0;
const stored = (message: ConversationMessage): ConversationMessage => ({ ...message, seq: ++seq });

const user = (id: string, text: string, branchFrom?: number): ConversationMessage =>
  stored({ id, role: 'user', createdAt: at, content: text, ...(branchFrom ? { branchFrom } : {}) });
const calling = (id: string, ...names: string[]): ConversationMessage =>
  stored({
    id,
    role: 'assistant',
    createdAt: at,
    content: null,
    tool_calls: names.map((name, index) => ({
      id: `call_${index}`,
      type: 'function',
      function: { name, arguments: '{}' },
    })),
  });
const result = (callId: string, text: string): ConversationMessage =>
  stored({ id: `r-${seq}`, role: 'tool', createdAt: at, tool_call_id: callId, content: text });
const ref = (assistantMessageId: string, callIndex: number, toolName: string) => ({
  assistantMessageId,
  callIndex,
  toolCallId: `call_${callIndex}`,
  toolName,
});

describe('ledger records', () => {
  it('are valid messages that never reach a model, each kind with its own id', () => {
    const request = approvalRequestRecord(
      { createdAt: at },
      { ...ref('a1', 0, 'run_command'), input: { command: 'ls' }, askedOf: 'local' },
    );
    const decision = approvalDecisionRecord(
      { createdAt: at },
      { requestId: request.id, outcome: 'approve', decidedBy: 'local', decidedAt: at },
    );
    const intent = toolIntentRecord(
      { createdAt: at },
      {
        ...ref('a1', 0, 'run_command'),
        attempt: 1,
        input: { command: 'ls' },
        idempotent: false,
        owner: 'me',
      },
    );
    for (const record of [request, decision, intent]) {
      expect(parseConversationMessage(record)).toBe(record);
      expect(isIncludedInContext(record)).toBe(false);
      expect(isLedgerRecord(record)).toBe(true);
      // Even with includeInContext flipped, the display-only part type keeps it out of a request.
      expect(() => toOpenAIMessage({ ...record, includeInContext: true })).toThrow();
    }
    expect(new Set([request.id, decision.id, intent.id, ledgerRecordIds.result('a1', 0)]).size).toBe(4);
    expect(decision.id).toBe(ledgerRecordIds.decision(request.id));
  });

  it('refuses an approval or an intent on a role other than system', () => {
    const request = approvalRequestRecord(
      { createdAt: at },
      { ...ref('a1', 0, 't'), input: {}, askedOf: 'any' },
    );
    expect(() => parseConversationMessage({ ...request, role: 'user' })).toThrow(/only system messages/);
  });

  it('keeps ids of long assistant ids safe and the same every time', () => {
    const long = 'x'.repeat(128);
    const id = ledgerRecordIds.intent(long, 3, 2);
    expect(id).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
    expect(ledgerRecordIds.intent(long, 3, 2)).toBe(id);
    expect(ledgerRecordIds.intent(`${'x'.repeat(127)}y`, 3, 2)).not.toBe(id);
  });
});

describe('readToolLedger', () => {
  it('gives each call of the last tool-call message its approval, attempts and result', () => {
    seq = 0;
    const assistant = calling('a1', 'read_file', 'run_command');
    const request = stored(
      approvalRequestRecord(
        { createdAt: at },
        { ...ref('a1', 1, 'run_command'), input: { command: 'ls' }, askedOf: 'local' },
      ),
    );
    const intent = (callIndex: number, attempt: number) =>
      stored(
        toolIntentRecord(
          { createdAt: at },
          { ...ref('a1', callIndex, 'read_file'), attempt, input: {}, idempotent: true, owner: 'p' },
        ),
      );
    const log = [user('u1', 'hi'), assistant, intent(0, 2), intent(0, 1), request, result('call_0', 'file')];
    const ledger = readToolLedger(log);
    expect(ledger.assistant?.id).toBe('a1');
    const [read, command] = ledger.calls;
    expect(read?.intents.map((i) => i.attempt)).toEqual([1, 2]);
    expect(read?.result?.content).toBe('file');
    expect(command?.approval?.id).toBe(request.id);
    expect(command?.approval?.decision).toBeUndefined();
    expect(command?.result).toBeUndefined();

    const decided = [
      ...log,
      stored(
        approvalDecisionRecord(
          { createdAt: at },
          { requestId: request.id, outcome: 'deny', decidedBy: 'caller:abc', decidedAt: at },
        ),
      ),
      // A second decision record can only come from a store that broke the id rule: the first stands.
      stored({
        ...approvalDecisionRecord(
          { createdAt: at },
          { requestId: request.id, outcome: 'approve', decidedBy: 'x', decidedAt: at },
        ),
        id: 'other',
      }),
    ];
    expect(readToolLedger(decided).calls[1]?.approval?.decision?.outcome).toBe('deny');
    expect(readToolLedger(decided).approvals).toHaveLength(1);
  });

  it('reads only the active branch: records of a replaced message do not count', () => {
    seq = 0;
    const log = [user('u1', 'first'), calling('a1', 'run_command')];
    log.push(
      stored(
        approvalRequestRecord(
          { createdAt: at },
          { ...ref('a1', 0, 'run_command'), input: {}, askedOf: 'any' },
        ),
      ),
    );
    log.push(user('u2', 'edited', 1), calling('a2', 'run_command'));
    const ledger = readToolLedger(log);
    expect(ledger.assistant?.id).toBe('a2');
    expect(ledger.calls[0]?.approval).toBeUndefined();
    // The list of every approval still names the old one.
    expect(ledger.approvals).toHaveLength(1);
  });

  it('is empty for a log without tool calls', () => {
    seq = 0;
    expect(readToolLedger([user('u1', 'hello')])).toEqual({ calls: [], approvals: [] });
  });

  it('knows an expired request by its time', () => {
    expect(isApprovalExpired({ expiresAt: at }, new Date(Date.parse(at) - 1))).toBe(false);
    expect(isApprovalExpired({ expiresAt: at }, new Date(at))).toBe(true);
    expect(isApprovalExpired({}, new Date(8.64e15))).toBe(false);
  });
});
