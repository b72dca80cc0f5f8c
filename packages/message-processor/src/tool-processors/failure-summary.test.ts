import { describe, expect, it } from 'vitest';
import { failureSummary } from './failure-summary.js';
import type { ToolCallView } from './tool-call-view.js';

function failed(result: Partial<ToolCallView>): ToolCallView {
  return {
    toolName: 'Read',
    toolUseId: 't',
    input: {},
    output: '',
    isError: true,
    status: 'completed',
    ...result,
  };
}

describe('failureSummary', () => {
  it('gives the first line of the output', () => {
    expect(failureSummary('Read', failed({ output: '\nNo such file\nstack…' }))).toBe(
      'Read failed: No such file',
    );
  });

  it('trims a long reason to 120 characters', () => {
    const summary = failureSummary('Read', failed({ output: 'x'.repeat(200) }));
    expect(summary).toBe(`Read failed: ${'x'.repeat(119)}…`);
  });

  it('falls back on the structured error, then on no reason', () => {
    expect(failureSummary('Read', failed({ structured: { error: { message: 'Not found' } } }))).toBe(
      'Read failed: Not found',
    );
    expect(failureSummary('Read', failed({ structured: 'Error: gone' }))).toBe('Read failed: Error: gone');
    expect(failureSummary('Read', failed({}))).toBe('Read failed');
  });
});
