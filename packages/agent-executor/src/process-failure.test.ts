import { describe, expect, it } from 'vitest';
import { missingResultFailure, processFailure } from './process-failure.js';
import { RunOutcome } from './run-outcome.js';
import type { AgentProcessExit } from './spawn-agent-process.js';
import { StderrTail } from './stderr-tail.js';

const exited: AgentProcessExit = {
  started: true,
  exitCode: 0,
  signal: null,
  aborted: false,
  killed: false,
  signalsSent: [],
};

function failure(exit: Partial<AgentProcessExit>, stderr = '', cwdMissing = false, discardedAfterAbort = 0) {
  const tail = new StderrTail();
  tail.push(stderr);
  return processFailure({
    cliName: 'Gemini CLI',
    command: 'gemini',
    exit: { ...exited, ...exit },
    stderr: tail,
    killGraceMs: 5000,
    cwdMissing,
    cwd: '/work',
    discardedAfterAbort,
  });
}

describe('processFailure', () => {
  it('is undefined for a clean exit', () => {
    expect(failure({})).toBeUndefined();
  });

  it('maps exits and signals to AGENT_FAILED with the last stderr lines', () => {
    const stderr = Array.from({ length: 15 }, (_, index) => `line ${index + 1}`).join('\n');
    expect(failure({ exitCode: 41 }, stderr)).toEqual({
      code: 'AGENT_FAILED',
      message: `Gemini CLI exited with code 41:\n${Array.from({ length: 10 }, (_, index) => `line ${index + 6}`).join('\n')}`,
    });
    expect(failure({ exitCode: null, signal: 'SIGSEGV' })).toEqual({
      code: 'AGENT_FAILED',
      message: 'Gemini CLI was killed by SIGSEGV',
    });
  });

  it('bounds the stderr it quotes', () => {
    const message = failure({ exitCode: 1 }, 'x'.repeat(10_000))?.message ?? '';
    expect(message.length).toBeLessThan(2100);
    expect(message).toContain('…x');
  });

  it('reports an abort as LLM_ABORTED, whatever the exit', () => {
    expect(failure({ aborted: true, exitCode: 143 })).toEqual({
      code: 'LLM_ABORTED',
      message: 'The run was aborted',
    });
    const escalated = { aborted: true, killed: true, signal: 'SIGKILL' as const };
    expect(failure({ ...escalated, signalsSent: ['SIGINT', 'SIGTERM', 'SIGKILL'] })?.message).toBe(
      'The run was aborted; Gemini CLI did not stop on SIGINT within 5000 ms: sent SIGTERM, then SIGKILL',
    );
    expect(failure({ aborted: true, signalsSent: ['SIGINT'] }, '', false, 2)?.message).toBe(
      'The run was aborted; 2 items Gemini CLI wrote after the abort were not stored',
    );
  });

  it('fails a stream without its result line, unless it said why already', () => {
    const outcome = new RunOutcome();
    expect(missingResultFailure('Gemini CLI', outcome)).toEqual({
      code: 'AGENT_FAILED',
      message: expect.stringMatching(/^Gemini CLI ended without a result: the agent CLI exited before/),
    });
    outcome.cutOff({ code: 'LLM_BAD_RESPONSE', message: 'cut' });
    expect(missingResultFailure('Gemini CLI', outcome)).toBeUndefined();
    const finished = new RunOutcome();
    finished.observe({ type: 'session_result', timestamp: '2026-11-26T20:00:00.000Z', isError: false });
    expect(missingResultFailure('Gemini CLI', finished)).toBeUndefined();
  });

  it('explains a process that could not start', () => {
    const enoent = Object.assign(new Error('spawn gemini ENOENT'), { code: 'ENOENT' });
    const eacces = Object.assign(new Error('spawn gemini EACCES'), { code: 'EACCES' });
    const notStarted = { started: false, exitCode: null };
    expect(failure({ ...notStarted, spawnError: enoent })?.message).toBe(
      'gemini not found: install Gemini CLI or pass the path of its executable as `command` (spawn gemini ENOENT)',
    );
    expect(failure({ ...notStarted, spawnError: enoent }, '', true)?.message).toBe(
      'The working directory /work does not exist',
    );
    expect(failure({ ...notStarted, spawnError: eacces })).toEqual({
      code: 'AGENT_FAILED',
      message: 'Could not start gemini: spawn gemini EACCES',
    });
  });
});
