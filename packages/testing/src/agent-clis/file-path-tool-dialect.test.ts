import { describe, expect, it } from 'vitest';
import { claudeCodeAgentCli } from './claude-code-agent-cli.js';
import { geminiCliAgentCli } from './gemini-cli-agent-cli.js';
import { qwenCodeAgentCli } from './qwen-code-agent-cli.js';

describe('filePathToolDialect, as the CLIs use it', () => {
  const edit = { kind: 'edit', path: 'a.txt', oldText: 'x', newText: 'y' } as const;
  const shell = { kind: 'shell', command: 'ls -la' } as const;

  it('makes paths absolute and names the tools of each CLI', () => {
    expect(claudeCodeAgentCli.dialect.toolCall({ kind: 'read', path: 'a.txt' }, '/w')).toEqual({
      name: 'Read',
      arguments: { file_path: '/w/a.txt' },
    });
    expect(
      geminiCliAgentCli.dialect.toolCall({ kind: 'write', path: 'sub/a.txt', content: 'hi\n' }, '/w'),
    ).toEqual({ name: 'write_file', arguments: { file_path: '/w/sub/a.txt', content: 'hi\n' } });
  });

  it("gives Gemini CLI's replace its instruction, and a description to the shells that take one", () => {
    expect(geminiCliAgentCli.dialect.toolCall(edit, '/w')).toEqual({
      name: 'replace',
      arguments: {
        file_path: '/w/a.txt',
        instruction: 'Change the greeting.',
        old_string: 'x',
        new_string: 'y',
      },
    });
    expect(claudeCodeAgentCli.dialect.toolCall(edit, '/w').arguments).not.toHaveProperty('instruction');
    expect(claudeCodeAgentCli.dialect.toolCall(shell, '/w')).toEqual({
      name: 'Bash',
      arguments: { command: 'ls -la', description: 'Run ls -la' },
    });
    expect(qwenCodeAgentCli.dialect.toolCall(shell, '/w')).toEqual({
      name: 'run_shell_command',
      arguments: { command: 'ls -la' },
    });
  });

  it('passes a call only one CLI knows through as it is', () => {
    const native = { kind: 'native', name: 'TaskList', input: {} } as const;
    expect(claudeCodeAgentCli.dialect.toolCall(native, '/w')).toEqual({ name: 'TaskList', arguments: {} });
  });
});
