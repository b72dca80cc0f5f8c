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

  it('stops on SIGINT, writes a result line and maps permissions to its sandbox mode', () => {
    expect(codexCli.stop).toEqual({ signal: 'SIGINT' });
    expect(codexCli.writesResult).toBe(true);
    const args = codexCli.permissionArgs;
    const never = ['-c', 'approval_policy="never"'];
    expect(args?.({ mode: 'read-only' })).toEqual(['-c', 'sandbox_mode="read-only"', ...never]);
    expect(args?.({ mode: 'edit', allowedTools: [] })).toEqual([
      '-c',
      'sandbox_mode="workspace-write"',
      ...never,
    ]);
    expect(args?.({ mode: 'full' })).toEqual(['-c', 'sandbox_mode="danger-full-access"', ...never]);
  });

  it('refuses allowedTools, which Codex has no flag for', () => {
    expect(() => codexCli.permissionArgs?.({ mode: 'edit', allowedTools: ['shell'] })).toThrow(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        message: expect.stringMatching(/no per-tool allow list/),
      }),
    );
  });

  it('gives its permissions as -c settings, which `exec resume` accepts too (it has no --sandbox)', () => {
    const permissionArgs = codexCli.permissionArgs?.({ mode: 'edit' }) ?? [];
    expect(codexCli.buildArgs({ prompt: 'go', resumeSessionId: 't-1', extraArgs: permissionArgs })).toEqual([
      'exec',
      'resume',
      't-1',
      '--json',
      '-c',
      'sandbox_mode="workspace-write"',
      '-c',
      'approval_policy="never"',
      '--',
      'go',
    ]);
  });

  it('is a built-in agent', () => {
    expect(resolveAgentCli('codex')).toBe(codexCli);
  });
});
