import { describe, expect, it } from 'vitest';
import { codexAgentCli } from './codex-agent-cli.js';

describe('codexAgentCli', () => {
  it('runs `codex exec --json` without its sandbox (the namespace is one), the prompt after --', () => {
    expect(codexAgentCli.args({ prompt: '- hi', permissions: 'all' })).toEqual([
      'exec',
      '--json',
      '--skip-git-repo-check',
      '--dangerously-bypass-approvals-and-sandbox',
      '--',
      '- hi',
    ]);
    expect(codexAgentCli.args({ prompt: 'again', permissions: 'all', resumeSessionId: 't-1' })).toEqual(
      expect.arrayContaining(['exec', 'resume', 't-1']),
    );
    expect(() => codexAgentCli.args({ prompt: 'hi', permissions: ['shell'] })).toThrow(/no per-tool/);
  });

  it('writes and edits files with apply_patch patches, reads with its shell', () => {
    const call = (action: Parameters<typeof codexAgentCli.dialect.toolCall>[0]) =>
      codexAgentCli.dialect.toolCall(action, '/w');
    expect(call({ kind: 'write', path: 'hello.txt', content: 'Hello, world!\nSecond line.\n' })).toEqual({
      name: 'apply_patch',
      arguments: '*** Begin Patch\n*** Add File: hello.txt\n+Hello, world!\n+Second line.\n*** End Patch\n',
    });
    expect(
      call({ kind: 'edit', path: 'hello.txt', oldText: 'Hello, world!', newText: 'Hello, Cairn!' }),
    ).toEqual({
      name: 'apply_patch',
      arguments:
        '*** Begin Patch\n*** Update File: hello.txt\n@@\n-Hello, world!\n+Hello, Cairn!\n*** End Patch\n',
    });
    expect(call({ kind: 'read', path: 'missing.txt' })).toEqual({
      name: 'exec_command',
      arguments: { cmd: 'cat missing.txt' },
    });
  });

  it('finds its session id in thread.started', () => {
    expect(codexAgentCli.sessionIdOf?.('{"type":"thread.started","thread_id":"01a2"}\n')).toBe('01a2');
  });
});
