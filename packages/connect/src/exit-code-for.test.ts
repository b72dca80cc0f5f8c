import { CairnError } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { exitCodeFor } from './exit-code-for.js';

describe('exitCodeFor', () => {
  it('gives each family of codes its own exit code', () => {
    expect(exitCodeFor(new CairnError('INVALID_ID', 'x'))).toBe(2);
    expect(exitCodeFor(new CairnError('PACKAGE_MISSING', 'x'))).toBe(2);
    expect(exitCodeFor(new CairnError('STORE_CORRUPT', 'x'))).toBe(3);
    expect(exitCodeFor(new CairnError('LLM_RATE_LIMITED', 'x'))).toBe(4);
    expect(exitCodeFor(new CairnError('TOOL_FAILED', 'x'))).toBe(5);
    expect(exitCodeFor(new CairnError('LOOP_STUCK', 'x'))).toBe(5);
    expect(exitCodeFor(new CairnError('AGENT_FAILED', 'x'))).toBe(6);
    expect(exitCodeFor(new CairnError('LLM_ABORTED', 'x'))).toBe(130);
    expect(exitCodeFor(new Error('bug'))).toBe(1);
  });
});
