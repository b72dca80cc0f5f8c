import { describe, expect, it } from 'vitest';
import { alreadyDecidedText, decisionText, describeInput, parseJsonInput } from './approval-text.js';

const decided = {
  id: 'r1',
  askedOf: 'caller:abc',
  decidedBy: 'caller:abc',
  decidedAt: '2026-01-01T00:00:00Z',
};
const execution = (toolName: string, input: unknown) =>
  ({ toolName, toolUseId: 'c1', input, output: '', isError: false, durationMs: 0, summary: '' }) as never;

describe('approval text', () => {
  it('says how a request was decided, by whom, with the reason given', () => {
    expect(decisionText({ ...decided, outcome: 'approve' })).toBe('Allowed by caller:abc');
    expect(decisionText({ ...decided, outcome: 'deny' }, 'not today')).toBe(
      'Denied by caller:abc: not today',
    );
    expect(decisionText({ ...decided, outcome: 'expired', decidedBy: 'system' })).toBe(
      'Expired: no decision came in time',
    );
    expect(decisionText({ ...decided, outcome: 'superseded', decidedBy: 'system' })).toBe(
      'Superseded by a new message',
    );
    expect(decisionText({ id: 'r1', askedOf: 'any' })).toBe('');
  });

  it('says who decided first after a late decision, or the server’s words while the view is stale', () => {
    expect(alreadyDecidedText({ ...decided, outcome: 'edit', decidedBy: 'local' }, 'x')).toBe(
      'Already decided: allowed with an edited input by the terminal',
    );
    expect(alreadyDecidedText({ id: 'r1', askedOf: 'any' }, 'decided already (deny by local)')).toBe(
      'decided already (deny by local)',
    );
  });

  it('shows a command as its command line, any other input as JSON, and checks edited JSON', () => {
    expect(describeInput(execution('run_command', { command: 'ls -la', cwd: 'src' }))).toEqual({
      label: 'Command',
      text: 'ls -la\n(in src)',
    });
    expect(describeInput(execution('deploy', { target: 'prod' }))).toEqual({
      label: 'Input',
      text: '{\n  "target": "prod"\n}',
    });
    expect(parseJsonInput('{"a": 1}')).toEqual({ value: { a: 1 } });
    expect(parseJsonInput('{"a": ')).toMatchObject({ error: expect.stringMatching(/^Not valid JSON: /) });
  });
});
