import { describe, expect, it } from 'vitest';
import { claudeCodeCli } from './claude-code-cli.js';

describe('claudeCodeCli', () => {
  it('builds print-mode stream-json arguments with the prompt last, after --', () => {
    expect(claudeCodeCli.buildArgs({ prompt: 'hi', extraArgs: [] })).toEqual([
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--',
      'hi',
    ]);
    expect(
      claudeCodeCli.buildArgs({
        prompt: '-v',
        model: 'opus',
        resumeSessionId: 's-1',
        extraArgs: ['--max-turns', '3'],
      }),
    ).toEqual([
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--model',
      'opus',
      '--resume=s-1',
      '--max-turns',
      '3',
      '--',
      '-v',
    ]);
  });

  it('converts Claude Code lines, with a fresh converter per run', () => {
    const converter = claudeCodeCli.createConverter();
    expect(claudeCodeCli.createConverter()).not.toBe(converter);
    const [event] = converter.push('{"type":"system","subtype":"init","session_id":"s-1","cwd":"/w"}');
    expect(event).toMatchObject({
      type: 'session_start',
      provider: claudeCodeCli.provider,
      sessionId: 's-1',
    });
  });

  it('stops on SIGINT and maps permissions to --permission-mode and --allowedTools', () => {
    expect(claudeCodeCli.stop).toEqual({ signal: 'SIGINT' });
    const args = claudeCodeCli.permissionArgs;
    expect(args?.({ mode: 'read-only' })).toEqual(['--permission-mode=default']);
    expect(args?.({ mode: 'edit', allowedTools: [] })).toEqual(['--permission-mode=acceptEdits']);
    expect(args?.({ mode: 'full', allowedTools: ['Read', 'Bash(git log:*)'] })).toEqual([
      '--permission-mode=bypassPermissions',
      '--allowedTools=Read,Bash(git log:*)',
    ]);
  });
});
