import { describe, expect, it } from 'vitest';
import { processFailure } from './process-failure.js';
import type { AgentProcessExit } from './spawn-agent-process.js';
import { StderrTail } from './stderr-tail.js';

const exited: AgentProcessExit = { started: true, exitCode: 0, signal: null, aborted: false, killed: false };

function failure(exit: Partial<AgentProcessExit>, stderr = '', cwdMissing = false) {
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
    expect(failure({ aborted: true, killed: true, signal: 'SIGKILL' })?.message).toBe(
      'The run was aborted; Gemini CLI ignored SIGTERM and was killed with SIGKILL after 5000 ms',
    );
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
