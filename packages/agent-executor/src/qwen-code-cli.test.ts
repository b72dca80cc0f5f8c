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

  it('is a built-in agent', () => {
    expect(resolveAgentCli('qwen-code')).toBe(qwenCodeCli);
  });
});
