import type { ApprovalEntry } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import {
  alreadyDecidedText,
  describeApprovalRequest,
  describeDecision,
  waitingLines,
} from './approval-text.js';
import { plainColors } from './test-support.js';

const decidedAt = '2026-11-28T10:00:00.000Z';

describe('approval text', () => {
  it('describes a shell call by its command, any other call by its input', () => {
    expect(describeApprovalRequest({ toolName: 'run_command', input: { command: 'make' } })).toBe(
      'run_command: make',
    );
    expect(describeApprovalRequest({ toolName: 'deploy', input: { target: 'prod' } })).toBe(
      'deploy {"target":"prod"}',
    );
  });

  it('says how a request was decided, and who was first', () => {
    const decision = { outcome: 'deny' as const, decidedBy: 'local', decidedAt, reason: 'not today' };
    expect(describeDecision(decision)).toBe(`deny by local at ${decidedAt} (not today)`);
    expect(alreadyDecidedText(decision)).toBe(`already decided by local (deny at ${decidedAt})`);
  });

  it('lists each waiting request with its exact input, its id and the commands that decide it', () => {
    const entry: ApprovalEntry = {
      id: 'm-1.a0',
      requestedAt: decidedAt,
      request: {
        kind: 'request',
        assistantMessageId: 'm-1',
        callIndex: 0,
        toolCallId: 'call_1',
        toolName: 'run_command',
        input: { command: 'rm -rf build' },
        askedOf: 'local',
      },
    };
    expect(waitingLines('chat-1', [entry], plainColors)).toBe(
      [
        '? run_command waits for approval: {"command":"rm -rf build"}',
        '    id:      m-1.a0',
        '    approve: cairn approvals approve chat-1 m-1.a0',
        '    deny:    cairn approvals deny chat-1 m-1.a0',
        '',
      ].join('\n'),
    );
    expect(waitingLines('chat-1', [], plainColors)).toBe('');
  });
});
