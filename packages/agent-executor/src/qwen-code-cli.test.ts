import { describe, expect, it } from 'vitest';
import { qwenCodeCli } from './qwen-code-cli.js';
import { resolveAgentCli } from './resolve-agent-cli.js';

describe('qwenCodeCli', () => {
  it('builds headless stream-json arguments with the prompt as the --prompt value', () => {
    expect(qwenCodeCli.buildArgs({ prompt: 'hi', extraArgs: [] })).toEqual([
      '--prompt=hi',
      '--output-format',
      'stream-json',
    ]);
    expect(
      qwenCodeCli.buildArgs({
        prompt: '- list',
        model: 'qwen3-coder-plus',
        resumeSessionId: 's-1',
        extraArgs: ['--yolo'],
      }),
    ).toEqual([
      '--prompt=- list',
      '--output-format',
      'stream-json',
      '--model',
      'qwen3-coder-plus',
      '--resume=s-1',
      '--yolo',
    ]);
  });

  it('converts Qwen Code lines under its provider name', () => {
    const [event] = qwenCodeCli
      .createConverter()
      .push('{"type":"system","subtype":"init","session_id":"q-1","model":"qwen3-coder-plus","tools":[]}');
    expect(event).toMatchObject({ type: 'session_start', provider: qwenCodeCli.provider, sessionId: 'q-1' });
  });

  it('is stopped by SIGKILL, writes a result line and maps permissions to --approval-mode', () => {
    expect(qwenCodeCli.stop).toEqual({ signal: 'SIGKILL' });
    expect(qwenCodeCli.writesResult).toBe(true);
    const args = qwenCodeCli.permissionArgs;
    expect(args?.({ mode: 'read-only' })).toEqual(['--approval-mode=default']);
    expect(args?.({ mode: 'edit' })).toEqual(['--approval-mode=auto-edit']);
    expect(args?.({ mode: 'full', allowedTools: ['read_file', 'run_shell_command(git)'] })).toEqual([
      '--approval-mode=yolo',
      '--allowed-tools=read_file',
      '--allowed-tools=run_shell_command(git)',
    ]);
  });

  it('is a built-in agent', () => {
    expect(resolveAgentCli('qwen-code')).toBe(qwenCodeCli);
  });
});
