import { type AgentOutput, isAgentOutput } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { REAL_FIXTURE_CWD, readRealFixture } from '../../test/real-fixtures.js';
import { createCodexConverter } from './create-codex-converter.js';

const NOW = '2030-01-01T00:00:00.000Z';
const now = () => new Date(NOW);
const fixture = (name: string) => readRealFixture(`codex/${name}.jsonl`);

function convert(lines: readonly string[]): AgentOutput[] {
  const converter = createCodexConverter({ now, runId: 'r' });
  const events = lines.flatMap((line) => converter.push(line));
  return [...events, ...converter.end()];
}
const convertText = (text: string) => convert(text.split('\n'));
const line = (value: unknown) => JSON.stringify(value);

describe('createCodexConverter on real Codex CLI 0.171.0 output', () => {
  it('converts the main run: thread, reasoning, text, patches, commands, usage, final result', () => {
    const text = fixture('main');
    const threadId = JSON.parse(text.split('\n')[0] ?? '').thread_id as string;
    const events = convertText(text);
    expect(events.every(isAgentOutput)).toBe(true);
    expect(events.filter((event) => event.type === 'unknown')).toEqual([]);
    const cwd = REAL_FIXTURE_CWD;
    const at = { timestamp: NOW };
    expect(events.slice(0, 6)).toEqual([
      { type: 'session_start', ...at, provider: 'codex', sessionId: threadId },
      { type: 'reasoning', ...at, id: 'r/item_0', text: 'Create the file first.' },
      { type: 'text', ...at, id: 'r/item_1', text: 'Creating hello.txt.' },
      {
        type: 'tool_use',
        ...at,
        id: 'r/item_2',
        toolName: 'file_change',
        input: { changes: [{ path: `${cwd}/hello.txt`, kind: 'add' }] },
      },
      {
        type: 'tool_result',
        ...at,
        toolUseId: 'r/item_2',
        toolName: 'file_change',
        output: `add ${cwd}/hello.txt`,
        isError: false,
        structured: { changes: [{ path: `${cwd}/hello.txt`, kind: 'add' }], status: 'completed' },
      },
      { type: 'text', ...at, id: 'r/item_3', text: 'Editing it.' },
    ]);
    const results = events.filter((event) => event.type === 'tool_result');
    expect(results.map((event) => [event.toolName, event.isError, event.structured])).toEqual([
      ['file_change', false, expect.anything()],
      [
        'file_change',
        false,
        expect.objectContaining({ changes: [{ path: `${cwd}/hello.txt`, kind: 'update' }] }),
      ],
      ['command_execution', false, { exit_code: 0, status: 'completed' }],
      ['command_execution', true, { exit_code: 1, status: 'failed' }],
    ]);
    expect(results[3]?.output).toBe('cat: does-not-exist.txt: No such file or directory\n');
    expect(events.find((event) => event.type === 'tool_use' && event.id === 'r/item_7')).toMatchObject({
      input: { command: "/bin/bash -lc 'cat does-not-exist.txt'" },
    });
    const usage = {
      inputTokens: 60,
      outputTokens: 96,
      totalTokens: 156,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 6,
    };
    expect(events.slice(-2)).toEqual([
      { type: 'usage', ...at, usage },
      {
        type: 'session_result',
        ...at,
        sessionId: threadId,
        isError: false,
        subtype: 'completed',
        result: 'Done: hello.txt says Hello, Cairn!',
        usage,
      },
    ]);
  });

  it('reports the resumed run under the same thread id', () => {
    const main = convertText(fixture('main'));
    const resumed = convertText(fixture('resume2'));
    expect(resumed[0]).toEqual({
      type: 'session_start',
      timestamp: NOW,
      provider: 'codex',
      sessionId: main[0]?.type === 'session_start' ? main[0].sessionId : 'none',
    });
    expect(resumed.at(-1)).toMatchObject({
      type: 'session_result',
      isError: false,
      result: 'hello.txt still greets Cairn.',
    });
  });

  it('classifies a server error Codex gave up retrying, and ends the session as failed', () => {
    const events = convertText(fixture('apierr'));
    // Codex's text names the stand-in's URL; the recorder writes its port, which differs from run to
    // run, as PORT.
    const message = expect.stringMatching(
      /^unexpected status 503 Service Unavailable: The engine is currently overloaded, please try again later, url: http:\/\/127\.0\.0\.1:PORT\/v1\/responses/,
    );
    // The `turn.failed` repeating the `error` line's message adds the failed result, not a second error.
    expect(events.slice(-2)).toEqual([
      { type: 'error', timestamp: NOW, code: 'LLM_UNAVAILABLE', retryable: true, message, fatal: false },
      expect.objectContaining({ type: 'session_result', isError: true, subtype: 'failed' }),
    ]);
    expect(events.filter((event) => event.type === 'tool_result')).toHaveLength(2);
  });

  it('classifies an API 400 as a bad request', () => {
    const events = convertText(fixture('err400'));
    expect(events.filter((event) => event.type === 'error')).toEqual([
      expect.objectContaining({
        code: 'LLM_BAD_REQUEST',
        retryable: false,
        message: 'mock: this request is invalid',
        raw: expect.stringContaining('"type":"invalid_request_error"'),
      }),
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'session_result', isError: true });
  });

  it('leaves an interrupted command unanswered: Codex writes nothing more on SIGINT or SIGTERM', () => {
    for (const name of ['sigint-sleep', 'sigterm-sleep']) {
      const events = convertText(fixture(name));
      expect(events.at(-1)).toMatchObject({
        type: 'tool_use',
        toolName: 'command_execution',
        input: { command: "/bin/bash -lc 'sleep 30'" },
      });
      expect(events.some((event) => event.type === 'session_result')).toBe(false);
    }
  });
});

describe('createCodexConverter on failures', () => {
  it('reports a turn.failed with a message of its own as a fatal error', () => {
    const events = convert([
      line({ type: 'turn.failed', error: { message: 'exceeded retry limit, last status: 429' } }),
    ]);
    expect(events).toEqual([
      {
        type: 'error',
        timestamp: NOW,
        code: 'LLM_RATE_LIMITED',
        retryable: true,
        message: 'exceeded retry limit, last status: 429',
        fatal: true,
      },
      { type: 'session_result', timestamp: NOW, isError: true, subtype: 'failed' },
    ]);
  });
});

describe('createCodexConverter on the other item types', () => {
  it('converts an MCP call with its text result, and a failed one', () => {
    const item = {
      id: 'item_1',
      type: 'mcp_tool_call',
      server: 'docs',
      tool: 'search',
      arguments: { q: 'x' },
    };
    const events = convert([
      line({ type: 'item.started', item: { ...item, result: null, error: null, status: 'in_progress' } }),
      line({
        type: 'item.completed',
        item: {
          ...item,
          result: { content: [{ type: 'text', text: 'found' }], structured_content: null },
          error: null,
          status: 'completed',
        },
      }),
      line({
        type: 'item.completed',
        item: { ...item, id: 'item_2', result: null, error: { message: 'boom' }, status: 'failed' },
      }),
    ]);
    expect(events.map((event) => [event.type, 'toolName' in event ? event.toolName : undefined])).toEqual([
      ['tool_use', 'mcp__docs__search'],
      ['tool_result', 'mcp__docs__search'],
      ['tool_use', 'mcp__docs__search'],
      ['tool_result', 'mcp__docs__search'],
    ]);
    expect(events[0]).toMatchObject({ input: { q: 'x' } });
    expect(events[1]).toMatchObject({ output: 'found', isError: false });
    expect(events[3]).toMatchObject({ output: 'boom', isError: true });
  });

  it('makes each new todo list version one answered call, skipping the unchanged repeat at the end', () => {
    const list = (completed: boolean) => ({
      id: 'item_4',
      type: 'todo_list',
      items: [
        { text: 'write', completed: true },
        { text: 'test', completed },
      ],
    });
    const events = convert([
      line({ type: 'item.started', item: list(false) }),
      line({ type: 'item.updated', item: list(true) }),
      line({ type: 'item.completed', item: list(true) }),
    ]);
    expect(events).toEqual([
      {
        type: 'tool_use',
        timestamp: NOW,
        id: 'r/item_4#1',
        toolName: 'todo_list',
        input: {
          todos: [
            { content: 'write', status: 'completed' },
            { content: 'test', status: 'pending' },
          ],
        },
      },
      {
        type: 'tool_result',
        timestamp: NOW,
        toolUseId: 'r/item_4#1',
        toolName: 'todo_list',
        output: '[x] write\n[ ] test',
        isError: false,
      },
      expect.objectContaining({ type: 'tool_use', id: 'r/item_4#2' }),
      expect.objectContaining({
        type: 'tool_result',
        toolUseId: 'r/item_4#2',
        output: '[x] write\n[x] test',
      }),
    ]);
  });

  it('converts a web search, a declined command, a warning item and keeps what it does not know', () => {
    const events = convert([
      line({
        type: 'item.completed',
        item: { id: 'item_0', type: 'web_search', id2: 1, query: 'cairn', action: { type: 'search' } },
      }),
      line({
        type: 'item.completed',
        item: {
          id: 'item_1',
          type: 'command_execution',
          command: 'rm -rf /',
          aggregated_output: '',
          exit_code: null,
          status: 'declined',
        },
      }),
      line({
        type: 'item.completed',
        item: { id: 'item_2', type: 'error', message: 'Model metadata for `x` not found.' },
      }),
      line({ type: 'item.completed', item: { id: 'item_3', type: 'collab_tool_call', tool: 'spawn_agent' } }),
      line({ type: 'turn.started', extra: true }),
      line({ type: 'telemetry' }),
      'not json',
    ]);
    expect(events).toEqual([
      {
        type: 'tool_use',
        timestamp: NOW,
        id: 'r/item_0',
        toolName: 'web_search',
        input: { query: 'cairn', action: { type: 'search' } },
      },
      {
        type: 'tool_result',
        timestamp: NOW,
        toolUseId: 'r/item_0',
        toolName: 'web_search',
        output: '',
        isError: false,
      },
      {
        type: 'unknown',
        timestamp: NOW,
        source: 'codex',
        raw: { type: 'item.completed.web_search', unknownFields: { id2: 1 } },
      },
      expect.objectContaining({
        type: 'tool_use',
        toolName: 'command_execution',
        input: { command: 'rm -rf /' },
      }),
      expect.objectContaining({
        type: 'tool_result',
        isError: true,
        structured: { exit_code: null, status: 'declined' },
      }),
      {
        type: 'error',
        timestamp: NOW,
        code: 'AGENT_FAILED',
        retryable: false,
        message: 'Model metadata for `x` not found.',
        fatal: false,
      },
      {
        type: 'unknown',
        timestamp: NOW,
        source: 'codex',
        raw: {
          type: 'item.completed',
          item: { id: 'item_3', type: 'collab_tool_call', tool: 'spawn_agent' },
        },
      },
      {
        type: 'unknown',
        timestamp: NOW,
        source: 'codex',
        raw: { type: 'turn.started', unknownFields: { extra: true } },
      },
      { type: 'unknown', timestamp: NOW, source: 'codex', raw: { type: 'telemetry' } },
      expect.objectContaining({ type: 'error', code: 'LLM_BAD_RESPONSE', raw: 'not json', fatal: false }),
    ]);
    expect(events.every(isAgentOutput)).toBe(true);
  });

  it('gives every run its own ids by default, as Codex restarts at item_0', () => {
    const completed = line({
      type: 'item.completed',
      item: { id: 'item_0', type: 'agent_message', text: 'hi' },
    });
    const [first] = createCodexConverter().push(completed);
    const [second] = createCodexConverter().push(completed);
    expect(first).toMatchObject({ type: 'text', text: 'hi' });
    expect(first?.type === 'text' && second?.type === 'text' && first.id !== second.id).toBe(true);
  });
});
