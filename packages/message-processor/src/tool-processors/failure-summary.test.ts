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

  it('names the subject of the call when given', () => {
    const subject = { name: 'src/x.ts', path: '/w/src/x.ts' };
    expect(failureSummary('Read', failed({ output: 'No such file' }), subject)).toBe(
      'Read src/x.ts — failed: No such file',
    );
    expect(failureSummary('Read', failed({}), subject)).toBe('Read src/x.ts — failed');
    // The name says which file: a reason ending with its path does not say it again.
    expect(failureSummary('Read', failed({ output: 'File not found: /w/src/x.ts' }), subject)).toBe(
      'Read src/x.ts — failed: File not found',
    );
    expect(failureSummary('Read', failed({ output: '/w/src/x.ts' }), subject)).toBe(
      'Read src/x.ts — failed: /w/src/x.ts',
    );
  });

  it("leaves out Claude Code's note of its working directory", () => {
    const output =
      '<tool_use_error>File does not exist. Note: your current working directory is /w.</tool_use_error>';
    expect(failureSummary('Read', failed({ output }), { name: 'x.ts', path: '/w/x.ts' })).toBe(
      'Read x.ts — failed: File does not exist.',
    );
  });
});
