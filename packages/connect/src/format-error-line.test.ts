import { CairnError } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { formatErrorLine } from './format-error-line.js';

describe('formatErrorLine', () => {
  it('prints the problem, the code and the error’s own fix on one line', () => {
    const error = new CairnError('STORE_NOT_FOUND', 'there is no conversation "x"', {
      details: { fix: '`app list` shows the ids' },
    });
    expect(formatErrorLine('app', error, { STORE_NOT_FOUND: 'not this one' })).toBe(
      'app: there is no conversation "x" [STORE_NOT_FOUND] — `app list` shows the ids',
    );
  });

  it('falls back to the usual fix for the code, and ends at the code without one', () => {
    const usual = { LLM_AUTH: 'check the API key' };
    expect(formatErrorLine('app', new CairnError('LLM_AUTH', 'bad key'), usual)).toBe(
      'app: bad key [LLM_AUTH] — check the API key',
    );
    expect(formatErrorLine('app', new CairnError('TOOL_FAILED', 'no'), usual)).toBe('app: no [TOOL_FAILED]');
    expect(formatErrorLine('app', new CairnError('LLM_AUTH', 'bad key'))).toBe('app: bad key [LLM_AUTH]');
  });

  it('prints the message of anything else', () => {
    expect(formatErrorLine('app', new TypeError('oops'))).toBe('app: oops');
    expect(formatErrorLine('app', 'plain')).toBe('app: plain');
  });
});
