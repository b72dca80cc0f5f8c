import type { ToolCallResult } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { FailingCallTracker, failFingerprint } from './failing-call-tracker.js';

const failure = (content = 'not found'): ToolCallResult => ({
  toolCallId: 'c',
  toolName: 'read_file',
  content,
  isError: true,
  errorCode: 'TOOL_FAILED',
  durationMs: 1,
});

describe('failing call fingerprints', () => {
  it('are the same for the same call whatever its key order and spacing, different otherwise', () => {
    const a = failFingerprint(failure(), '{"path":"a.ts","limit":10}');
    expect(failFingerprint(failure(), '{ "limit": 10, "path": "a.ts" }')).toBe(a);
    expect(failFingerprint(failure(), '{"path":"b.ts","limit":10}')).not.toBe(a);
    expect(failFingerprint(failure('denied'), '{"path":"a.ts","limit":10}')).not.toBe(a);
    expect(a).toMatch(/^read_file:[0-9a-f]{16}$/);
  });

  it('count repeats; a success clears the count, an interruption leaves it', () => {
    const tracker = new FailingCallTracker();
    expect(tracker.record(failure(), '{}')).toBe(1);
    expect(tracker.record(failure(), '{}')).toBe(2);
    expect(tracker.record({ ...failure(), interrupted: true, content: 'Interrupted' }, '{}')).toBe(2);
    expect(tracker.record(failure('other'), '{}')).toBe(1);
    expect(tracker.record({ ...failure(), isError: false }, '{}')).toBe(0);
    expect(tracker.current).toEqual({ lastFailFingerprint: null, consecutiveFailCount: 0 });
  });
});
