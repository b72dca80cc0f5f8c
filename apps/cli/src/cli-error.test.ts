import { CairnError } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { cliFailure, formatCliError } from './cli-error.js';

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
});
