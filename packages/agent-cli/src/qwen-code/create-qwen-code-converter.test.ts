import { type AgentOutput, isAgentOutput } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { REAL_FIXTURE_CWD, readRealFixture } from '../../test/real-fixtures.js';
import { createQwenCodeConverter } from './create-qwen-code-converter.js';

const NOW = '2030-01-01T00:00:00.000Z';
const now = () => new Date(NOW);
const fixture = (name: string) => readRealFixture(`qwen-code/${name}.jsonl`);

function convert(text: string): AgentOutput[] {
  const converter = createQwenCodeConverter({ now });
  return [...text.split('\n').flatMap((line) => converter.push(line)), ...converter.end()];
}

const sessionIdOf = (text: string) => JSON.parse(text.split('\n')[0] ?? '').session_id as string;

describe('createQwenCodeConverter on real Qwen Code 0.15.10 output', () => {
  it('converts the main run under its own provider name', () => {
    const text = fixture('main');
    const events = convert(text);
    expect(events.every(isAgentOutput)).toBe(true);
    expect(events[0]).toMatchObject({
      type: 'session_start',
      provider: 'qwen-code',
      sessionId: sessionIdOf(text),
      cwd: REAL_FIXTURE_CWD,
      model: 'qwen3-coder-plus',
    });
    // Nothing is labelled Claude Code: Qwen Code's init extras (version, slash commands, …) included.
    expect(JSON.stringify(events)).not.toContain('claude-code');
    expect(
      events.filter((event) => event.type === 'unknown').every((event) => event.source === 'qwen-code'),
    ).toBe(true);
    const results = events.filter((event) => event.type === 'tool_result');
    expect(results.map((event) => [event.toolName, event.isError])).toEqual([
      ['write_file', false],
      ['edit', false],
      ['run_shell_command', false],
      ['read_file', true],
    ]);
    expect(results[3]?.output).toBe(`File not found: ${REAL_FIXTURE_CWD}/does-not-exist.txt`);
    expect(events.at(-1)).toMatchObject({
      type: 'session_result',
      isError: false,
      result: 'Done: hello.txt says Hello, Cairn!',
      usage: { inputTokens: 60, outputTokens: 110 },
    });
    expect(events.some((event) => event.type === 'error')).toBe(false);
  });

  it('keeps the session id across a resume', () => {
    const resumed = convert(fixture('resume2'));
    expect(resumed[0]).toMatchObject({ type: 'session_start', sessionId: sessionIdOf(fixture('main')) });
    expect(resumed.at(-1)).toMatchObject({
      type: 'session_result',
      isError: false,
      result: 'hello.txt still greets Cairn.',
    });
  });

  it('turns the API error Qwen Code reports as text and a "success" into a failed session', () => {
    const events = convert(fixture('err400'));
    const raw = '[API Error: 400 mock: this request is invalid]';
    // The provider's message, not the CLI's wrapper; and no assistant text for a log to store.
    expect(events.filter((event) => event.type === 'text' && event.text.includes('API Error'))).toEqual([]);
    expect(events.filter((event) => event.type === 'error')).toEqual([
      {
        type: 'error',
        timestamp: NOW,
        code: 'LLM_BAD_REQUEST',
        message: 'mock: this request is invalid',
        retryable: false,
        fatal: true,
        raw,
      },
    ]);
    expect(events.at(-1)).toMatchObject({
      type: 'session_result',
      isError: true,
      subtype: 'api_error',
      result: raw,
    });
  });

  it('leaves an ordinary text that mentions an API error alone', () => {
    const converter = createQwenCodeConverter({ now });
    const line = JSON.stringify({
      type: 'assistant',
      message: {
        id: 'm',
        content: [{ type: 'text', text: 'The [API Error: 500] you saw earlier is fixed.' }],
      },
    });
    expect(converter.push(line).map((event) => event.type)).toEqual(['text']);
  });
});
