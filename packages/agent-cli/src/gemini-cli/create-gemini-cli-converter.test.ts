import { readFileSync } from 'node:fs';
import { type AgentOutput, type AgentOutputOf, isAgentOutput } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { createGeminiCliConverter } from './create-gemini-cli-converter.js';

const FIXTURE_LINES = readFileSync(new URL('./__fixtures__/stream.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line !== '');
const NOW = '2030-01-01T00:00:00.000Z';
const DIR = '/home/dev/work-gemini-stream';

function convertLines(lines: readonly string[]): AgentOutput[] {
  const converter = createGeminiCliConverter({ now: () => new Date(NOW) });
  return [...lines.flatMap((line) => converter.push(line)), ...converter.end()];
}

const ofType = <T extends AgentOutput['type']>(events: AgentOutput[], type: T) =>
  events.filter((event): event is AgentOutputOf<T> => event.type === type);

describe('createGeminiCliConverter on the recorded stream', () => {
  const events = convertLines(FIXTURE_LINES);

  it('produces only valid events and nothing unknown', () => {
    expect(events.every(isAgentOutput)).toBe(true);
    expect(ofType(events, 'unknown')).toEqual([]);
    expect(ofType(events, 'error')).toEqual([]);
  });

  it('starts the session with its id and model, then echoes the prompt', () => {
    expect(events[0]).toEqual({
      type: 'session_start',
      timestamp: '2026-11-22T08:51:01.036Z',
      provider: 'gemini-cli',
      sessionId: '36d01c64-f5ba-4a5c-86ac-75956eb73cfb',
      model: 'auto',
    });
    expect(events[1]).toMatchObject({
      type: 'user_message',
      text: expect.stringMatching(/^Create hello\.txt/),
    });
  });

  it('assembles each run of deltas into one closed text block', () => {
    expect(ofType(events, 'text').map(({ id, text }) => ({ id, text }))).toEqual([
      { id: 'text-1', text: "I'll create hello.txt with a greeting." },
      { id: 'text-2', text: 'Now I will edit the greeting.' },
      { id: 'text-3', text: 'Let me check whether a notes file exists.' },
      {
        id: 'text-4',
        text: 'Done. I created hello.txt, changed its greeting to "Hello, acceptance tests!", listed the directory, and confirmed that does-not-exist.txt is missing.',
      },
    ]);
    const firstDeltas = ofType(events, 'text_delta').filter((event) => event.id === 'text-1');
    expect(firstDeltas.map((event) => event.delta)).toEqual(["I'll create hello.txt with a g", 'reeting.']);
    // The block closes when the tool call arrives, with its last chunk's time.
    const closeIndex = events.findIndex((event) => event.type === 'text');
    expect(events[closeIndex]?.timestamp).toBe('2026-11-22T08:51:01.102Z');
    expect(events[closeIndex + 1]?.type).toBe('tool_use');
  });

  it('keeps the order of the five turns', () => {
    const shape = events
      .filter((event) => event.type !== 'text_delta')
      .map((event) => (event.type === 'tool_use' ? `tool_use:${event.toolName}` : event.type));
    expect(shape).toEqual([
      'session_start',
      'user_message',
      'text',
      'tool_use:write_file',
      'tool_result',
      'text',
      'tool_use:replace',
      'tool_result',
      'tool_use:run_shell_command',
      'tool_result',
      'text',
      'tool_use:read_file',
      'tool_result',
      'text',
      'usage',
      'session_result',
    ]);
  });

  it('reports the tool calls with their ids and parameters', () => {
    expect(ofType(events, 'tool_use').map(({ id, toolName, input }) => ({ id, toolName, input }))).toEqual([
      {
        id: 'write_file__write_file_1795337461103_0',
        toolName: 'write_file',
        input: {
          file_path: `${DIR}/hello.txt`,
          content: 'Hello, world!\nThis file was written by the mock model.\n',
        },
      },
      {
        id: 'replace__replace_1795337461210_0',
        toolName: 'replace',
        input: {
          file_path: `${DIR}/hello.txt`,
          instruction: 'Change the greeting to address the acceptance tests.',
          old_string: 'Hello, world!',
          new_string: 'Hello, acceptance tests!',
        },
      },
      {
        id: 'run_shell_command__run_shell_command_1795337461239_0',
        toolName: 'run_shell_command',
        input: { command: 'ls -la', description: 'List files in the working directory' },
      },
      {
        id: 'read_file__read_file_1795337461316_0',
        toolName: 'read_file',
        input: { file_path: `${DIR}/does-not-exist.txt` },
      },
    ]);
  });

  it('reports tool results, the failed read with its error message', () => {
    const results = ofType(events, 'tool_result');
    expect(results.map(({ toolUseId, toolName, isError }) => ({ toolUseId, toolName, isError }))).toEqual([
      { toolUseId: 'write_file__write_file_1795337461103_0', toolName: 'write_file', isError: false },
      { toolUseId: 'replace__replace_1795337461210_0', toolName: 'replace', isError: false },
      {
        toolUseId: 'run_shell_command__run_shell_command_1795337461239_0',
        toolName: 'run_shell_command',
        isError: false,
      },
      { toolUseId: 'read_file__read_file_1795337461316_0', toolName: 'read_file', isError: true },
    ]);
    // Gemini CLI reports the write and the edit with no output at all.
    expect(results[0]?.output).toBe(`Wrote ${DIR}/hello.txt`);
    expect(results[1]?.output).toBe(`Edited ${DIR}/hello.txt`);
    expect(results[2]?.output).toMatch(/^total 12\n.*hello\.txt$/s);
    expect(results[3]).toMatchObject({
      output: `File not found: ${DIR}/does-not-exist.txt`,
      timestamp: '2026-11-22T08:51:01.331Z',
      structured: { output: 'File not found.', error: { type: 'file_not_found' }, errorCode: 'TOOL_FAILED' },
    });
  });

  it('ends with the usage totals and the session result', () => {
    // `output_tokens` (332) leaves out the 30 thought tokens `total_tokens` counts.
    const usage = {
      inputTokens: 60388,
      outputTokens: 362,
      reasoningTokens: 30,
      totalTokens: 60750,
      cacheReadTokens: 0,
    };
    expect(events.at(-2)).toEqual({ type: 'usage', timestamp: '2026-11-22T08:51:01.357Z', usage });
    expect(events.at(-1)).toMatchObject({
      type: 'session_result',
      sessionId: '36d01c64-f5ba-4a5c-86ac-75956eb73cfb',
      isError: false,
      subtype: 'success',
      durationMs: 322,
      usage,
      result: expect.stringMatching(/^Done\. I created hello\.txt/),
    });
  });
});

describe('createGeminiCliConverter on unusual lines', () => {
  const at = '2026-01-01T00:00:00.000Z';
  const line = (value: object) => JSON.stringify({ timestamp: at, ...value });

  it('reports a non-JSON line as a non-fatal error and goes on', () => {
    const events = convertLines(['not json {', line({ type: 'init', session_id: 's' })]);
    expect(events[0]).toEqual({
      type: 'error',
      timestamp: NOW,
      code: 'LLM_BAD_RESPONSE',
      message: expect.any(String),
      retryable: false,
      fatal: false,
      raw: 'not json {',
    });
    expect(events[1]).toMatchObject({ type: 'session_start', sessionId: 's' });
  });

  it('keeps unknown line types and unknown fields as unknown events', () => {
    const events = convertLines([
      line({ type: 'thought', text: 'hm' }),
      line({ type: 'init', session_id: 's', extra: 1 }),
    ]);
    expect(events).toEqual([
      {
        type: 'unknown',
        timestamp: at,
        source: 'gemini-cli',
        raw: { timestamp: at, type: 'thought', text: 'hm' },
      },
      { type: 'session_start', timestamp: at, provider: 'gemini-cli', sessionId: 's' },
      {
        type: 'unknown',
        timestamp: at,
        source: 'gemini-cli',
        raw: { type: 'init', unknownFields: { extra: 1 } },
      },
    ]);
  });

  it('maps error lines, fatal only when the severity says so', () => {
    const events = convertLines([
      line({ type: 'error', severity: 'warning', message: 'Loop detected' }),
      line({ type: 'error', severity: 'fatal', message: 'Quota exhausted' }),
    ]);
    expect(events.map((event) => event.type === 'error' && [event.message, event.fatal])).toEqual([
      ['Loop detected', false],
      ['Quota exhausted', true],
    ]);
  });

  it('turns an error result into an error event and a failed session result', () => {
    const events = convertLines([
      line({
        type: 'result',
        status: 'error',
        error: { type: 'FatalAuthenticationError', message: 'Auth failed' },
      }),
    ]);
    expect(events).toEqual([
      {
        type: 'error',
        timestamp: at,
        code: 'LLM_AUTH',
        message: 'Auth failed',
        retryable: false,
        fatal: true,
        providerMetadata: { 'gemini-cli': { errorType: 'FatalAuthenticationError' } },
      },
      { type: 'session_result', timestamp: at, isError: true, subtype: 'error' },
    ]);
  });

  it("takes no tool name or error type for one of Object.prototype's names", () => {
    const events = convertLines([
      line({ type: 'tool_use', tool_name: 'constructor', tool_id: 't1', parameters: { file_path: '/a' } }),
      line({ type: 'tool_result', tool_id: 't1', status: 'success' }),
      line({ type: 'tool_use', tool_name: 'toString', tool_id: 't2', parameters: {} }),
      line({
        type: 'tool_result',
        tool_id: 't2',
        status: 'error',
        error: { type: 'toString', message: 'x' },
      }),
      line({ type: 'result', status: 'error', error: { type: 'constructor', message: 'y' } }),
    ]);
    expect(events.every(isAgentOutput)).toBe(true);
    const results = events.filter((event) => event.type === 'tool_result');
    expect(results.map((event) => event.output)).toEqual(['constructor succeeded', 'x']);
    expect(results[1]).toMatchObject({ structured: { errorCode: 'TOOL_FAILED' } });
    expect(events.find((event) => event.type === 'error')).toMatchObject({ code: 'AGENT_FAILED' });
  });

  it('closes an open text block at the end and uses the clock for a bad timestamp', () => {
    const events = convertLines([
      JSON.stringify({ type: 'message', role: 'assistant', content: 'Hi', delta: true }),
    ]);
    expect(events).toEqual([
      { type: 'text_delta', timestamp: NOW, id: 'text-1', delta: 'Hi' },
      { type: 'text', timestamp: NOW, id: 'text-1', text: 'Hi' },
    ]);
  });

  it('keeps lines with missing required fields as unknown instead of throwing', () => {
    const events = convertLines([
      line({ type: 'tool_use' }),
      line({ type: 'tool_result' }),
      'null',
      '[1]',
      '',
    ]);
    expect(events.map((event) => event.type)).toEqual(['unknown', 'unknown', 'unknown', 'unknown']);
  });
});
