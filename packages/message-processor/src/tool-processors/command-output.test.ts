import { describe, expect, it } from 'vitest';
import { commandOutputDetails, parseExitCode } from './command-output.js';
import { toolCall } from './test-support.js';
import type { ToolCallView } from './tool-call-view.js';

const call = (result: Partial<ToolCallView>) => toolCall('Bash', {}, result);

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

  it("takes Gemini CLI's last exit code line, the one after the command's own output", () => {
    expect(parseExitCode('Output: x\nExit Code: 5\ny\nExit Code: 6\nProcess Group PGID: 1')).toBe(6);
    expect(parseExitCode('Exit code 1\nExit Code: 2')).toBe(2);
  });

  it("reads only Gemini CLI's lines in the output of a command that did not fail", () => {
    expect(parseExitCode('Command exited with code: 2', false)).toBe(2);
    expect(parseExitCode('Output: done\nExit Code: 1', false)).toBe(1);
    expect(parseExitCode('Exit code 1', false)).toBeUndefined();
    expect(parseExitCode('exit code: 1', false)).toBeUndefined();
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

  it('reads an exit code from the output of a success too, 0 when nothing says otherwise', () => {
    expect(commandOutputDetails(call({ output: 'Output: (empty)\nExit Code: 1' })).exitCode).toBe(1);
    expect(commandOutputDetails(call({ output: 'Command exited with code: 127' })).exitCode).toBe(127);
    expect(commandOutputDetails(call({ output: 'Output: ok' })).exitCode).toBe(0);
    expect(commandOutputDetails(call({ output: 'Output: (empty)\nSignal: 9' })).exitCode).toBeNull();
    expect(
      commandOutputDetails(call({ output: 'Command terminated by signal: SIGKILL' })).exitCode,
    ).toBeNull();
  });

  it("does not read the exit code of a success from a command's own stdout", () => {
    // `echo "Exit Code: $?"` after a failing step: Claude Code's Bash still succeeded.
    const structured = { stdout: 'Exit Code: 1', stderr: '', interrupted: false };
    expect(commandOutputDetails(call({ output: 'Exit Code: 1', structured })).exitCode).toBe(0);
  });

  it('prefers a reported exit code', () => {
    expect(commandOutputDetails(call({ isError: true, structured: { exit_code: 4 } })).exitCode).toBe(4);
    expect(commandOutputDetails(call({ isError: true, structured: { exitCode: 1.5 } })).exitCode).toBeNull();
  });
});
