import { describe, expect, it } from 'vitest';
import { geminiCli } from './gemini-cli.js';

describe('geminiCli', () => {
  it('builds headless stream-json arguments with the prompt as the --prompt value', () => {
    expect(geminiCli.buildArgs({ prompt: 'hi', extraArgs: [] })).toEqual([
      '--prompt=hi',
      '--output-format',
      'stream-json',
    ]);
    expect(
      geminiCli.buildArgs({
        prompt: '- list',
        model: 'gemini-2.5-pro',
        resumeSessionId: 's-1',
        extraArgs: ['--yolo'],
      }),
    ).toEqual([
      '--prompt=- list',
      '--output-format',
      'stream-json',
      '-m',
      'gemini-2.5-pro',
      '--resume=s-1',
      '--yolo',
    ]);
  });

  it('converts Gemini CLI lines under its provider name', () => {
    const [event] = geminiCli
      .createConverter()
      .push('{"type":"init","timestamp":"2026-01-01T00:00:00.000Z","session_id":"s-1","model":"auto"}');
    expect(event).toMatchObject({ type: 'session_start', provider: geminiCli.provider, sessionId: 's-1' });
  });

  it('runs without re-launching, stops on SIGINT and maps permissions to --approval-mode', () => {
    expect(geminiCli.stop).toEqual({ signal: 'SIGINT' });
    expect(geminiCli.env).toEqual({ GEMINI_CLI_NO_RELAUNCH: 'true' });
    const args = geminiCli.permissionArgs;
    expect(args?.({ mode: 'read-only' })).toEqual(['--approval-mode=default']);
    expect(args?.({ mode: 'edit' })).toEqual(['--approval-mode=auto_edit']);
    expect(args?.({ mode: 'full', allowedTools: ['read_file', 'run_shell_command(git)'] })).toEqual([
      '--approval-mode=yolo',
      '--allowed-tools=read_file',
      '--allowed-tools=run_shell_command(git)',
    ]);
  });
});
