import { describe, expect, it } from 'vitest';
import { qwenCodeAgentCli } from './qwen-code-agent-cli.js';

describe('qwenCodeAgentCli', () => {
  it('runs headless stream-json with the prompt as the joined --prompt value', () => {
    expect(qwenCodeAgentCli.args({ prompt: '- hi', permissions: 'all', resumeSessionId: 's-1' })).toEqual([
      '--output-format',
      'stream-json',
      '--yolo',
      '--resume=s-1',
      '--prompt=- hi',
    ]);
    expect(qwenCodeAgentCli.args({ prompt: 'hi', permissions: ['read_file', 'edit'] })).toEqual([
      '--output-format',
      'stream-json',
      '--allowed-tools=read_file',
      '--allowed-tools=edit',
      '--prompt=hi',
    ]);
  });

  it('calls Qwen Code tools with absolute paths, `edit` for edits', () => {
    expect(
      qwenCodeAgentCli.dialect.toolCall({ kind: 'edit', path: 'a.txt', oldText: 'x', newText: 'y' }, '/w'),
    ).toEqual({ name: 'edit', arguments: { file_path: '/w/a.txt', old_string: 'x', new_string: 'y' } });
  });

  it('points the OpenAI-compatible client at the stand-in', () => {
    expect(qwenCodeAgentCli.env?.({ home: '/h', baseURL: 'http://127.0.0.1:1/v1' })).toMatchObject({
      OPENAI_BASE_URL: 'http://127.0.0.1:1/v1',
    });
  });
});
