import { describe, expect, it } from 'vitest';
import { commandOutputDetails, parseExitCode } from './command-output.js';
import type { ToolCallView } from './tool-call-view.js';

function call(result: Partial<ToolCallView>): ToolCallView {
  return {
    toolName: 'Bash',
    toolUseId: 't',
    input: {},
    output: '',
    isError: false,
    status: 'completed',
    ...result,
  };
}

describe('parseExitCode', () => {
  it('reads Claude Code and Gemini CLI exit code lines', () => {
    expect(parseExitCode('Exit code 2\nls: nope')).toBe(2);
    expect(parseExitCode('Output: x\nExit Code: 127\nSignal: (none)')).toBe(127);
    expect(parseExitCode('Error: Exit code 1')).toBe(1);
  });

  it('ignores anything else', () => {
    expect(parseExitCode('Exit Code: (none)')).toBeUndefined();
    expect(parseExitCode('the exit code 3 was printed mid-line')).toBeUndefined();
  });
});

describe('commandOutputDetails', () => {
  it('takes stdout and stderr from the structured result', () => {
    expect(
      commandOutputDetails(call({ output: 'both', structured: { stdout: 'out', stderr: 'err' } })),
    ).toEqual({
      type: 'commandOutput',
      stdout: 'out',
      stderr: 'err',
      exitCode: 0,
    });
  });

  it('falls back on the output text, and on null when a failure names no exit code', () => {
    expect(commandOutputDetails(call({ output: 'Killed', isError: true }))).toEqual({
      type: 'commandOutput',
      stdout: 'Killed',
      stderr: '',
      exitCode: null,
    });
  });

  it('prefers a reported exit code', () => {
    expect(commandOutputDetails(call({ isError: true, structured: { exit_code: 4 } })).exitCode).toBe(4);
    expect(commandOutputDetails(call({ isError: true, structured: { exitCode: 1.5 } })).exitCode).toBeNull();
  });
});
