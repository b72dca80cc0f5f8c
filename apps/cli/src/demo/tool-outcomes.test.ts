import { describe, expect, it } from 'vitest';
import { exitCodeOf, firstLine, keyFailureLine, wasInterrupted, wasRefused } from './tool-outcomes.js';

describe('keyFailureLine', () => {
  it('quotes the failing test of TAP output (Node 20) and of the spec reporter (Node 23+)', () => {
    const tap = [
      'Exit code 1',
      'TAP version 13',
      'ok 1 - greet says hello',
      'not ok 2 - shout says it loudly',
    ];
    expect(keyFailureLine(tap.join('\n'))).toBe('not ok 2 - shout says it loudly');
    const spec = [
      'Exit code 1',
      '✔ greet says hello (0.5ms)',
      '✖ shout says it loudly (1.1ms)',
      '  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
      'ℹ fail 1',
      '✖ failing tests:',
    ];
    expect(keyFailureLine(spec.join('\n'))).toBe('✖ shout says it loudly (1.1ms)');
  });

  it('falls back to an error line, then to the first line of output', () => {
    expect(keyFailureLine('Exit code 2\nwarming up\nTypeError: x is not a function')).toBe(
      'TypeError: x is not a function',
    );
    expect(keyFailureLine('Exit code 3\n\n  something went wrong  \nmore')).toBe('something went wrong');
    expect(keyFailureLine('Exit code 4')).toBe('Exit code 4');
  });
});

describe('reading tool results', () => {
  it('tells refusals, interruptions and exit codes apart', () => {
    expect(wasRefused('The user did not approve running run_command.')).toBe(true);
    expect(wasRefused("run_command needs the user's approval, and there is no one to ask here.")).toBe(true);
    expect(wasRefused('The tool edit_file is not allowed here. Available tools: read_file.')).toBe(true);
    expect(wasRefused('Exit code 1')).toBe(false);
    expect(
      wasInterrupted('Interrupted: no result was recorded for this tool call. (the turn was cancelled)'),
    ).toBe(true);
    expect(exitCodeOf('Exit code 127\nsh: nope: not found')).toBe(127);
    expect(exitCodeOf('all good')).toBeUndefined();
  });

  it('cuts a first line that is too long', () => {
    expect(firstLine(`  ${'a'.repeat(10)}\nb`, 5)).toBe('aaaa…');
  });
});
