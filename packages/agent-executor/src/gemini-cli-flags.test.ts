import { describe, expect, it } from 'vitest';
import { geminiCli } from './gemini-cli.js';
import { qwenCodeCli } from './qwen-code-cli.js';

// Qwen Code forks Gemini CLI: both take the same headless flags, each with its own words for some.
describe.each([
  {
    cli: geminiCli,
    model: 'gemini-2.5-pro',
    modelFlag: '-m',
    editMode: 'auto_edit',
    initLine: '{"type":"init","timestamp":"2026-01-01T00:00:00.000Z","session_id":"s-1","model":"auto"}',
  },
  {
    cli: qwenCodeCli,
    model: 'qwen3-coder-plus',
    modelFlag: '--model',
    // `qwen --help` (0.15.10): plan | default | auto-edit | yolo.
    editMode: 'auto-edit',
    initLine: '{"type":"system","subtype":"init","session_id":"s-1","model":"qwen3-coder-plus","tools":[]}',
  },
])('$cli.name', ({ cli, model, modelFlag, editMode, initLine }) => {
  it('builds headless stream-json arguments with the prompt as the --prompt value', () => {
    expect(cli.buildArgs({ prompt: 'hi', extraArgs: [] })).toEqual([
      '--prompt=hi',
      '--output-format',
      'stream-json',
    ]);
    expect(cli.buildArgs({ prompt: '- list', model, resumeSessionId: 's-1', extraArgs: ['--yolo'] })).toEqual(
      ['--prompt=- list', '--output-format', 'stream-json', modelFlag, model, '--resume=s-1', '--yolo'],
    );
  });

  it('converts its lines under its provider name', () => {
    const [event] = cli.createConverter().push(initLine);
    expect(event).toMatchObject({ type: 'session_start', provider: cli.provider, sessionId: 's-1' });
  });

  it('maps permissions to --approval-mode and one --allowed-tools per allowed tool', () => {
    const args = cli.permissionArgs;
    expect(args?.({ mode: 'read-only' })).toEqual(['--approval-mode=default']);
    expect(args?.({ mode: 'edit' })).toEqual([`--approval-mode=${editMode}`]);
    expect(args?.({ mode: 'full', allowedTools: ['read_file', 'run_shell_command(git)'] })).toEqual([
      '--approval-mode=yolo',
      '--allowed-tools=read_file',
      '--allowed-tools=run_shell_command(git)',
    ]);
  });
});
