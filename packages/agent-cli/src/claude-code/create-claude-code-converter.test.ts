import { readFileSync } from 'node:fs';
import { type AgentOutput, type AgentOutputOf, isAgentOutput } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { createClaudeCodeConverter } from './create-claude-code-converter.js';

const NOW = new Date('2026-11-22T09:00:00.000Z');
const fixture = (name: string): string =>
  readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

function convertLines(lines: string[]): AgentOutput[] {
  const converter = createClaudeCodeConverter({ now: () => NOW });
  return [...lines.flatMap((line) => converter.push(line)), ...converter.end()];
}

const convertFixture = (name: string): AgentOutput[] => convertLines(fixture(name).split('\n'));

const ofType = <T extends AgentOutput['type']>(events: AgentOutput[], type: T): AgentOutputOf<T>[] =>
  events.filter((event): event is AgentOutputOf<T> => event.type === type);

const CWD = '/home/dev/work-claude-stream';
const FINAL_TEXT =
  'Done. I created hello.txt, changed its greeting to "Hello, acceptance tests!", listed the directory, and confirmed that does-not-exist.txt is missing.';

describe('createClaudeCodeConverter on stream.jsonl', () => {
  const events = convertFixture('stream.jsonl');

  it('produces only valid events', () => {
    expect(events.every(isAgentOutput)).toBe(true);
    expect(ofType(events, 'error')).toEqual([]);
  });

  it('keeps the fields it does not map as one unknown event per line', () => {
    const unknown = ofType(events, 'unknown').map((event) => event.raw as { type: string; fields: object });
    expect(unknown.map((raw) => raw.type)).toEqual(['system', 'result']);
    expect(Object.keys(unknown[0]?.fields ?? {})).toEqual(
      expect.arrayContaining(['mcp_servers', 'slash_commands', 'agents', 'apiKeySource']),
    );
    expect(unknown[1]?.fields).toHaveProperty('duration_api_ms');
    for (const mapped of ['permission_denials', 'modelUsage', 'stop_reason', 'terminal_reason'])
      expect(unknown[1]?.fields).not.toHaveProperty(mapped);
  });

  it("keeps the result's terminal reason, stop reason and per-model usage on the session result", () => {
    expect(ofType(events, 'session_result')[0]?.providerMetadata).toEqual({
      'claude-code': {
        terminalReason: 'completed',
        stopReason: 'end_turn',
        modelUsage: { 'claude-opus-4-8[1m]': expect.objectContaining({ costUSD: 0.48909 }) },
      },
    });
  });

  it('reports tools refused by permissions as TOOL_DENIED errors', () => {
    const result = JSON.parse(fixture('stream.jsonl').trim().split('\n').at(-1) ?? '{}');
    result.permission_denials = [
      { tool_name: 'Bash', tool_use_id: 'toolu_9', tool_input: { command: 'rm -rf /' } },
    ];
    const denied = ofType(convertLines([JSON.stringify(result)]), 'error');
    expect(denied).toEqual([
      expect.objectContaining({
        code: 'TOOL_DENIED',
        message: 'Claude Code was not permitted to use Bash (call toolu_9)',
        fatal: false,
        raw: expect.stringContaining('rm -rf'),
      }),
    ]);
  });

  it('keeps each tool input as the CLI wrote it, so it is not serialised again', () => {
    const uses = ofType(events, 'tool_use');
    expect(uses).toHaveLength(4);
    for (const use of uses) expect(use.inputText).toBe(JSON.stringify(use.input));
    const line = fixture('stream.jsonl')
      .split('\n')
      .find((text) => text.includes('"name":"Edit"'));
    expect(line).toContain(`"input":${uses[1]?.inputText}`);
  });

  it('gives no input text for a line of several blocks (the text could belong to either)', () => {
    const [use] = ofType(
      convertLines([
        JSON.stringify({
          type: 'assistant',
          message: {
            id: 'msg_2',
            content: [
              { type: 'tool_use', id: 'toolu_a', name: 'Read', input: { file_path: 'a' } },
              { type: 'tool_use', id: 'toolu_b', name: 'Read', input: { file_path: 'b' } },
            ],
          },
        }),
      ]),
      'tool_use',
    );
    expect(use).toMatchObject({ id: 'toolu_a', input: { file_path: 'a' } });
    expect(use?.inputText).toBeUndefined();
  });

  it('starts the session with its id, model, tools and cwd', () => {
    const [start] = events;
    expect(start).toMatchObject({
      type: 'session_start',
      sessionId: 'e5fde8fd-c7a9-4a1d-ab92-f90f0c5e1490',
      model: 'claude-opus-4-8[1m]',
      cwd: CWD,
      provider: 'claude-code',
      timestamp: NOW.toISOString(),
    });
    expect(start?.type === 'session_start' && start.tools).toContain('Write');
  });

  it('reports the texts of the turns with their message ids', () => {
    expect(ofType(events, 'text').map(({ text, messageId, id }) => ({ text, messageId, id }))).toEqual([
      {
        text: "I'll create hello.txt with a greeting.",
        messageId: 'msg_01MockA3883940002xxxxxxx',
        id: 'msg_01MockA3883940002xxxxxxx:0',
      },
      {
        text: 'Now I will edit the greeting.',
        messageId: 'msg_01MockA3884850005xxxxxxx',
        id: 'msg_01MockA3884850005xxxxxxx:0',
      },
      {
        text: 'Let me check whether a notes file exists.',
        messageId: 'msg_01MockA3886490011xxxxxxx',
        id: 'msg_01MockA3886490011xxxxxxx:0',
      },
      { text: FINAL_TEXT, messageId: 'msg_01MockA3886990013xxxxxxx', id: 'msg_01MockA3886990013xxxxxxx:0' },
    ]);
  });

  it('reports the Write, Edit, Bash and Read calls with their ids and inputs', () => {
    expect(
      ofType(events, 'tool_use').map(({ id, toolName, input, messageId }) => ({
        id,
        toolName,
        input,
        messageId,
      })),
    ).toEqual([
      {
        id: 'toolu_01MockA3883930001xxxxxxx',
        toolName: 'Write',
        input: {
          file_path: `${CWD}/hello.txt`,
          content: 'Hello, world!\nThis file was written by the mock model.\n',
        },
        messageId: 'msg_01MockA3883940002xxxxxxx',
      },
      {
        id: 'toolu_01MockA3884840004xxxxxxx',
        toolName: 'Edit',
        input: {
          replace_all: false,
          file_path: `${CWD}/hello.txt`,
          old_string: 'Hello, world!',
          new_string: 'Hello, acceptance tests!',
        },
        messageId: 'msg_01MockA3884850005xxxxxxx',
      },
      {
        id: 'toolu_01MockA3885500007xxxxxxx',
        toolName: 'Bash',
        input: { command: 'ls -la', description: 'List files in the working directory' },
        messageId: 'msg_01MockA3885510008xxxxxxx',
      },
      {
        id: 'toolu_01MockA3886490010xxxxxxx',
        toolName: 'Read',
        input: { file_path: `${CWD}/does-not-exist.txt` },
        messageId: 'msg_01MockA3886490011xxxxxxx',
      },
    ]);
  });

  it('reports the tool results with their names, errors and structured results', () => {
    const [write, edit, bash, read] = ofType(events, 'tool_result');
    expect(write).toMatchObject({
      toolUseId: 'toolu_01MockA3883930001xxxxxxx',
      toolName: 'Write',
      isError: false,
    });
    expect(write?.output).toMatch(/^File created successfully/);
    expect(write?.structured).toMatchObject({
      type: 'create',
      filePath: `${CWD}/hello.txt`,
      structuredPatch: [],
    });
    expect(write?.timestamp).toBe('2026-11-22T08:49:48.458Z');
    expect(edit).toMatchObject({ toolName: 'Edit', isError: false });
    expect(edit?.structured).toMatchObject({
      oldString: 'Hello, world!',
      newString: 'Hello, acceptance tests!',
    });
    expect(edit?.structured).toMatchObject({ structuredPatch: [expect.objectContaining({ oldStart: 1 })] });
    expect(bash).toMatchObject({ toolName: 'Bash', isError: false, structured: { stderr: '' } });
    expect(bash?.output).toContain('hello.txt');
    expect(read).toMatchObject({
      toolUseId: 'toolu_01MockA3886490010xxxxxxx',
      toolName: 'Read',
      isError: true,
      output: 'File does not exist. Note: your current working directory is /home/dev/work-claude-stream.',
    });
    // The failed Read's `tool_use_result` is a plain string: nothing structured to keep.
    expect(read?.structured).toBeUndefined();
  });

  it('ends with the summed usage and the session result', () => {
    expect(events.slice(-3)).toMatchObject([
      { type: 'usage', usage: { inputTokens: 96453, outputTokens: 273, totalTokens: 96726 } },
      { type: 'unknown', raw: { type: 'result' } },
      {
        type: 'session_result',
        sessionId: 'e5fde8fd-c7a9-4a1d-ab92-f90f0c5e1490',
        isError: false,
        subtype: 'success',
        result: FINAL_TEXT,
        turns: 5,
        durationMs: 508,
        costUsd: 0.48909,
      },
    ]);
  });
});

describe('createClaudeCodeConverter on stream-partial-messages.jsonl', () => {
  const partial = convertFixture('stream-partial-messages.jsonl');
  const whole = convertFixture('stream.jsonl');
  const closingTypes = new Set(['text', 'reasoning', 'tool_use', 'tool_result']);

  it('produces only valid events, keeping the thinking-token estimates as unknown', () => {
    expect(partial.every(isAgentOutput)).toBe(true);
    expect(ofType(partial, 'error')).toEqual([]);
    const unknownSubtypes = new Set(
      ofType(partial, 'unknown').map((event) => (event.raw as { subtype?: string }).subtype),
    );
    expect(unknownSubtypes).toEqual(new Set(['init', 'thinking_tokens', 'success']));
    expect(ofType(partial, 'status').map((event) => event.status)).toContain('requesting');
  });

  it('streams text deltas that add up to the closing text of the same block', () => {
    for (const text of ofType(partial, 'text')) {
      const deltas = ofType(partial, 'text_delta').filter((delta) => delta.id === text.id);
      expect(deltas.length).toBeGreaterThan(0);
      expect(deltas.map((delta) => delta.delta).join('')).toBe(text.text);
      expect(partial.indexOf(deltas.at(-1) as AgentOutput)).toBeLessThan(partial.indexOf(text));
    }
  });

  it('streams thinking and keeps its signature on the closing reasoning event', () => {
    const [reasoning] = ofType(partial, 'reasoning');
    expect(reasoning).toMatchObject({
      id: 'msg_01MockA3919580002xxxxxxx:0',
      text: 'The user wants a file created first; I will use the Write tool.',
      providerMetadata: { anthropic: { signature: 'bW9jay1zaWduYXR1cmUtbm90LXJlYWw=' } },
    });
    const deltas = ofType(partial, 'reasoning_delta').filter((delta) => delta.id === reasoning?.id);
    expect(deltas.map((delta) => delta.delta).join('')).toBe(reasoning?.text);
  });

  it('streams tool input that parses to the closing tool_use input', () => {
    const toolUses = ofType(partial, 'tool_use');
    expect(toolUses.map((toolUse) => toolUse.toolName)).toEqual(['Write', 'Edit', 'Bash', 'Read']);
    for (const toolUse of toolUses) {
      const deltas = ofType(partial, 'tool_input_delta').filter((delta) => delta.id === toolUse.id);
      expect(deltas.every((delta) => delta.toolName === toolUse.toolName)).toBe(true);
      const streamed = JSON.parse(deltas.map((delta) => delta.delta).join('')) as Record<string, unknown>;
      // The CLI normalises the final input (Edit gains `replace_all`), so compare the streamed keys.
      expect(toolUse.input).toMatchObject(streamed);
    }
  });

  it('gives the same closing blocks and results as the run without partial messages', () => {
    const shape = (events: AgentOutput[]) =>
      events
        .filter((event) => closingTypes.has(event.type) && event.type !== 'reasoning')
        .map((event) => {
          if (event.type === 'text') return { type: event.type, text: event.text };
          if (event.type === 'tool_use') return { type: event.type, toolName: event.toolName };
          if (event.type === 'tool_result')
            return { type: event.type, toolName: event.toolName, isError: event.isError };
          return { type: event.type };
        });
    expect(shape(partial)).toEqual(shape(whole));
    expect(partial.at(-1)).toMatchObject({
      type: 'session_result',
      turns: 5,
      costUsd: 0.49074999999999996,
      isError: false,
    });
  });
});

describe('createClaudeCodeConverter on odd input', () => {
  it('reports a line that is not JSON and goes on', () => {
    const events = convertLines(['not json {', '{"type":"system","subtype":"init","session_id":"s1"}']);
    expect(events).toMatchObject([
      { type: 'error', code: 'LLM_BAD_RESPONSE', raw: 'not json {', fatal: false, retryable: false },
      { type: 'session_start', sessionId: 's1' },
    ]);
  });

  it('keeps unknown line types, non-object JSON and unknown blocks as unknown events', () => {
    const events = convertLines([
      '{"type":"future_line","x":1}',
      '42',
      '{"type":"assistant","message":{"id":"m1","content":[{"type":"server_tool_use","id":"s"}]}}',
      '{"type":"stream_event","event":{"type":"future_event"}}',
    ]);
    expect(events.map((event) => event.type)).toEqual(['unknown', 'unknown', 'unknown', 'unknown']);
    expect(events[0]).toMatchObject({ source: 'claude-code', raw: { type: 'future_line', x: 1 } });
    expect(events[2]).toMatchObject({ messageId: 'm1', raw: { type: 'server_tool_use', id: 's' } });
  });

  it('skips blank lines', () => {
    expect(convertLines(['', '   '])).toEqual([]);
  });

  it('reads tool result output from text blocks and an absent is_error as success', () => {
    const [result] = convertLines([
      '{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"a"},{"type":"image"},{"type":"text","text":"b"}]}]},"tool_use_result":{"stdout":"a"}}',
    ]);
    expect(result).toMatchObject({ type: 'tool_result', toolUseId: 't1', output: 'a\nb', isError: false });
  });

  it("reports the user prompt, and a sub-agent's prompt as its task, marked with its parent call", () => {
    expect(convertLines(['{"type":"user","message":{"role":"user","content":"Hi"}}'])).toMatchObject([
      { type: 'user_message', text: 'Hi' },
    ]);
    expect(
      convertLines([
        '{"type":"user","message":{"role":"user","content":"Hi"},"parent_tool_use_id":"toolu_task"}',
      ]),
    ).toEqual([
      {
        type: 'task_progress',
        timestamp: expect.any(String),
        parentToolUseId: 'toolu_task',
        toolUseId: 'toolu_task',
        status: 'started',
        prompt: 'Hi',
      },
    ]);
  });

  it("stamps lines without a timestamp with the clock's time, as it moves", () => {
    const times = ['2026-11-22T09:00:00.000Z', '2026-11-22T09:00:00.000Z', '2026-11-22T09:00:00.001Z'];
    let tick = 0;
    const converter = createClaudeCodeConverter({ now: () => new Date(times[tick++] ?? 0) });
    const line = (text: string) =>
      `{"type":"assistant","message":{"id":"m1","content":[{"type":"text","text":"${text}"}]},"parent_tool_use_id":"p1"}`;
    const events = ['a', 'b', 'c'].flatMap((text) => converter.push(line(text)));
    expect(events.map((event) => event.timestamp)).toEqual(times);
    expect(events[0]).toEqual({
      type: 'text',
      timestamp: times[0],
      parentToolUseId: 'p1',
      messageId: 'm1',
      id: 'm1:0',
      text: 'a',
    });
  });

  it('keeps only the fields a line adds to its envelope as unmapped', () => {
    const events = convertLines([
      '{"type":"user","subtype":"x","uuid":"u","session_id":"s","message":{"content":"Hi"},"tool_use_result":"r","isMeta":true}',
      '{"type":"user","uuid":"u","message":{"content":"Hi"}}',
    ]);
    expect(ofType(events, 'unknown').map((event) => event.raw)).toEqual([
      { type: 'user', subtype: 'x', fields: { isMeta: true } },
    ]);
  });

  it('reports an error result with the CLI message', () => {
    const events = convertLines([
      '{"type":"result","subtype":"success","is_error":true,"result":"API Error: 529 Overloaded","num_turns":1}',
      '{"type":"result","subtype":"error_max_turns","is_error":false,"num_turns":3}',
    ]);
    expect(ofType(events, 'error')).toMatchObject([
      { code: 'AGENT_FAILED', message: 'API Error: 529 Overloaded', retryable: false, fatal: true },
      { code: 'LOOP_MAX_TURNS', message: 'Claude Code failed (error_max_turns)' },
    ]);
    expect(ofType(events, 'session_result').map((result) => result.isError)).toEqual([true, true]);
  });
});
