import { describe, expect, it } from 'vitest';
import { codexCli } from './codex-cli.js';
import { resolveAgentCli } from './resolve-agent-cli.js';

describe('codexCli', () => {
  it('builds `codex exec --json` arguments with the prompt last, after --', () => {
    expect(codexCli.buildArgs({ prompt: 'hi', extraArgs: [] })).toEqual(['exec', '--json', '--', 'hi']);
    expect(
      codexCli.buildArgs({
        prompt: '- list',
        model: 'gpt-5.5',
        extraArgs: ['--skip-git-repo-check'],
      }),
    ).toEqual(['exec', '--json', '--model', 'gpt-5.5', '--skip-git-repo-check', '--', '- list']);
  });

  it('resumes with the exec resume subcommand and the thread id', () => {
    expect(
      codexCli.buildArgs({
        prompt: 'again',
        resumeSessionId: '01a21977-9b7e-7371-ad32-a99fc062100e',
        extraArgs: [],
      }),
    ).toEqual(['exec', 'resume', '01a21977-9b7e-7371-ad32-a99fc062100e', '--json', '--', 'again']);
  });

  it('converts Codex lines under its provider name, with the thread id as the session id', () => {
    const [event] = codexCli.createConverter().push('{"type":"thread.started","thread_id":"t-1"}');
    expect(event).toMatchObject({ type: 'session_start', provider: codexCli.provider, sessionId: 't-1' });
  });

  it('is a built-in agent', () => {
    expect(resolveAgentCli('codex')).toBe(codexCli);
  });
});
