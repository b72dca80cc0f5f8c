import { CairnError } from '@cairn/core';
import { cairnErrorThrownBy } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { approvalFailure, parseEditedInput } from './approval-failure.js';

const failure = (code: ConstructorParameters<typeof CairnError>[0], details?: Record<string, unknown>) =>
  approvalFailure(
    new CairnError(code, 'runtime words', details === undefined ? {} : { details }),
    'chat-1',
    'm-1.a0',
  );

describe('parseEditedInput', () => {
  it('takes JSON, and refuses anything else as invalid input', () => {
    expect(parseEditedInput('{"command":"make"}')).toEqual({ command: 'make' });
    const error = cairnErrorThrownBy(() => parseEditedInput('{command'));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toBe('--input must be JSON, got "{command"');
  });
});

describe('approvalFailure', () => {
  it('keeps the code and says what happened to this request, and what to do', () => {
    const decision = { outcome: 'approve', decidedBy: 'caller:alice', decidedAt: '2026-11-28T10:00:00.000Z' };
    const already = failure('APPROVAL_ALREADY_DECIDED', { decision }) as CairnError;
    expect(already.code).toBe('APPROVAL_ALREADY_DECIDED');
    expect(already.message).toBe(
      'approval m-1.a0 was already decided by caller:alice (approve at 2026-11-28T10:00:00.000Z); nothing was decided or run again',
    );
    expect(already.details?.fix).toBe('`cairn approvals list chat-1` shows its requests');
    expect((failure('APPROVAL_NOT_FOUND') as CairnError).message).toBe(
      'conversation chat-1 has no approval request m-1.a0',
    );
    expect((failure('APPROVAL_EXPIRED') as CairnError).details?.fix).toBe(
      '`cairn chat --resume chat-1` tells the model',
    );
    expect((failure('APPROVAL_FORBIDDEN', { askedOf: 'caller:bob' }) as CairnError).message).toBe(
      'approval m-1.a0 is asked of caller:bob, not of this terminal',
    );
    expect((failure('TOOL_INVALID_INPUT', { issues: ['command: required'] }) as CairnError).message).toBe(
      "--input does not fit the tool's input: command: required",
    );
  });

  it('passes any other failure on as it is', () => {
    const other = new CairnError('STORE_UNAVAILABLE', 'down');
    expect(approvalFailure(other, 'chat-1', 'm-1.a0')).toBe(other);
    const bug = new Error('bug');
    expect(approvalFailure(bug, 'chat-1', 'm-1.a0')).toBe(bug);
  });
});
