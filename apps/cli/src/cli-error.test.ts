import { CairnError } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { cliFailure, exitCodeFor, formatCliError } from './cli-error.js';

describe('CLI errors', () => {
  it('prints one line with the problem, the code and the fix', () => {
    const error = cliFailure(
      'STORE_NOT_FOUND',
      'there is no conversation "x"',
      '`cairn conversations list` shows the ids',
    );
    expect(formatCliError(error)).toBe(
      'cairn: there is no conversation "x" [STORE_NOT_FOUND] — `cairn conversations list` shows the ids',
    );
    expect(formatCliError(new CairnError('LLM_AUTH', 'bad key'))).toMatch(
      /^cairn: bad key \[LLM_AUTH\] — check the API key/,
    );
    expect(formatCliError(new CairnError('TOOL_FAILED', 'no'))).toBe('cairn: no [TOOL_FAILED]');
  });

  it('gives each family of codes its own exit code', () => {
    expect(exitCodeFor(new CairnError('INVALID_ID', 'x'))).toBe(2);
    expect(exitCodeFor(new CairnError('STORE_CORRUPT', 'x'))).toBe(3);
    expect(exitCodeFor(new CairnError('LLM_RATE_LIMITED', 'x'))).toBe(4);
    expect(exitCodeFor(new CairnError('LOOP_STUCK', 'x'))).toBe(5);
    expect(exitCodeFor(new CairnError('AGENT_FAILED', 'x'))).toBe(6);
    expect(exitCodeFor(new CairnError('LLM_ABORTED', 'x'))).toBe(130);
    expect(exitCodeFor(new Error('bug'))).toBe(1);
  });
});
