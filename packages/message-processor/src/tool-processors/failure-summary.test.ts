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
    expect(failureSummary('Read', failed({ output: 'No such file' }), 'src/x.ts')).toBe(
      'Read src/x.ts — failed: No such file',
    );
    expect(failureSummary('Read', failed({}), 'src/x.ts')).toBe('Read src/x.ts — failed');
  });

  it("leaves out Claude Code's note of its working directory", () => {
    const output = '<tool_use_error>File does not exist. Note: your current working directory is /w.</tool_use_error>';
    expect(failureSummary('Read', failed({ output }), 'x.ts')).toBe('Read x.ts — failed: File does not exist.');
  });
});
