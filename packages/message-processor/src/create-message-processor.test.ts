import { type AgentOutput, type ConversationMessage, isValidConversationMessage } from '@cairn/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMessageProcessor } from './create-message-processor.js';
import { DisplayView } from './display-view.js';
import type { MessageProcessorOptions } from './message-processor-options.js';
import { toDisplayMessages } from './to-display-messages.js';

const timestamp = '2026-11-22T10:00:00.000Z';

function run(events: AgentOutput[], options: Partial<MessageProcessorOptions> = {}, end = true) {
  const log: ConversationMessage[] = [];
  const display: ConversationMessage[] = [];
  let next = 0;
  const processor = createMessageProcessor({
    onLogMessage: (message) => log.push(message),
    onDisplayMessage: (message) => display.push(message),
    generateId: () => `m${++next}`,
    ...options,
  });
  for (const event of events) processor.push(event);
  if (end) processor.end();
  return { log, display, processor };
}

const text = (id: string, value: string, messageId?: string): AgentOutput => ({
  type: 'text',
  timestamp,
  id,
  text: value,
  ...(messageId ? { messageId } : {}),
});
const toolUse = (id: string, toolName: string, input: unknown, messageId?: string): AgentOutput =>
  ({ type: 'tool_use', timestamp, id, toolName, input, ...(messageId ? { messageId } : {}) }) as AgentOutput;
const toolResult = (toolUseId: string, output: string, isError = false): AgentOutput => ({
  type: 'tool_result',
  timestamp,
  toolUseId,
  output,
  isError,
});

afterEach(() => {
  vi.useRealTimers();
});

describe('createMessageProcessor: the log', () => {
  it('makes one assistant message per model message, then its results, in order', () => {
    const { log } = run([
      { type: 'session_start', timestamp, provider: 'claude-code', sessionId: 's-1', cwd: '/w' },
      text('b1', 'Creating it.', 'msg_1'),
      toolUse('call_1', 'Write', { file_path: '/w/a.txt', content: 'hi' }, 'msg_1'),
      toolResult('call_1', 'File created'),
      text('b2', 'Done.', 'msg_2'),
      { type: 'session_result', timestamp, isError: false },
    ]);
    expect(log.map((m) => [m.role, m.content])).toEqual([
      ['assistant', 'Creating it.'],
      ['tool', 'File created'],
      ['assistant', 'Done.'],
    ]);
    expect(log[0]).toMatchObject({
      tool_calls: [
        { id: 'call_1', function: { name: 'Write', arguments: '{"file_path":"/w/a.txt","content":"hi"}' } },
      ],
      providerMetadata: { 'claude-code': { sessionId: 's-1', cwd: '/w' } },
    });
    expect(log[1]).toMatchObject({
      tool_call_id: 'call_1',
      toolName: 'Write',
      isError: false,
      partType: 'tool_result',
    });
    expect(log.every(isValidConversationMessage)).toBe(true);
  });

  it('coalesces deltas per block; the closing text wins, a cut-off block keeps its deltas', () => {
    const { log } = run([
      { type: 'text_delta', timestamp, id: 't1', delta: 'Hel' },
      { type: 'text_delta', timestamp, id: 't1', delta: 'lo' },
      { type: 'text', timestamp, id: 't1', text: 'Hello.' },
      { type: 'reasoning_delta', timestamp, id: 'r1', delta: 'think' },
      { type: 'text_delta', timestamp, id: 't2', delta: 'Cut o' },
    ]);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ content: 'Hello.\n\nCut o', reasoning: [{ text: 'think' }] });
  });

  it('groups events without message ids until a result arrives (Gemini CLI)', () => {
    const { log } = run([
      text('text-1', 'Listing.'),
      toolUse('c1', 'glob', { pattern: '*' }),
      toolUse('c2', 'glob', { pattern: '*.ts' }),
      toolResult('c2', 'b.ts'),
      toolResult('c1', 'a.txt\nb.ts'),
      text('text-2', 'Two files.'),
    ]);
    expect(log.map((m) => m.role)).toEqual(['assistant', 'tool', 'tool', 'assistant']);
    expect(log[0]?.tool_calls?.map((call) => call.id)).toEqual(['c1', 'c2']);
  });

  it("keeps a call's arguments as the model wrote them when the producer has the text", () => {
    const { log, display } = run([
      {
        type: 'tool_use',
        timestamp,
        id: 'c1',
        toolName: 'Bash',
        input: { command: 'ls' },
        inputText: '{ "command": "ls" }',
      },
      toolResult('c1', 'a.txt'),
    ]);
    expect(log[0]?.tool_calls?.[0]?.function.arguments).toBe('{ "command": "ls" }');
    expect(display[0]?.toolExecution?.input).toEqual({ command: 'ls' });
    expect(display).toEqual(toDisplayMessages(log));
  });

  it('shows what the log says when an input does not survive serialising (no producer text)', () => {
    const { log, display } = run([
      toolUse('c1', 'Bash', { n: -0, big: Number.POSITIVE_INFINITY }),
      toolResult('c1', 'ok'),
    ]);
    expect(log[0]?.tool_calls?.[0]?.function.arguments).toBe('{"n":0,"big":null}');
    expect(display[0]?.toolExecution?.input).toEqual({ n: 0, big: null });
    expect(display).toEqual(toDisplayMessages(JSON.parse(JSON.stringify(log))));
  });

  it('shares one frozen session record among the messages of a session', () => {
    const { log } = run([
      { type: 'session_start', timestamp, provider: 'claude-code', sessionId: 's-1' },
      text('a', 'one', 'm1'),
      text('b', 'two', 'm2'),
    ]);
    expect(log[0]?.providerMetadata).toBe(log[1]?.providerMetadata);
    expect(Object.isFrozen(log[0]?.providerMetadata?.['claude-code'])).toBe(true);
  });

  it('assembles streamed tool input and keeps unparseable input as text', () => {
    const { log } = run([
      { type: 'tool_input_delta', timestamp, id: 'c1', toolName: 'Bash', delta: '{"command":' },
      { type: 'tool_input_delta', timestamp, id: 'c1', delta: '"ls"}' },
      { type: 'tool_input_delta', timestamp, id: 'c2', toolName: 'Read', delta: '{"file_pa' },
    ]);
    expect(log[0]?.tool_calls?.map((call) => call.function)).toEqual([
      { name: 'Bash', arguments: '{"command":"ls"}' },
      { name: 'Read', arguments: '{"file_pa' },
    ]);
    // Neither call got a result: both are answered as interrupted at the end.
    expect(log.slice(1).map((m) => [m.tool_call_id, m.interrupted])).toEqual([
      ['c1', true],
      ['c2', true],
    ]);
  });

  it('records user input, and errors as error messages; a skipped bad line is hidden from the model', () => {
    const { log } = run([
      { type: 'user_message', timestamp, text: 'Hi' },
      {
        type: 'error',
        timestamp,
        code: 'LLM_BAD_RESPONSE',
        message: 'not JSON: {oops',
        retryable: false,
        raw: '{oops',
      },
      {
        type: 'error',
        timestamp,
        code: 'AGENT_FAILED',
        message: 'API Error: 500',
        retryable: false,
        fatal: true,
      },
    ]);
    expect(log).toEqual([
      { id: 'm1', role: 'user', createdAt: timestamp, content: 'Hi' },
      {
        id: 'm2',
        role: 'assistant',
        createdAt: timestamp,
        content: 'not JSON: {oops',
        partType: 'error',
        errorCode: 'LLM_BAD_RESPONSE',
        includeInContext: false,
      },
      {
        id: 'm3',
        role: 'assistant',
        createdAt: timestamp,
        content: 'API Error: 500',
        partType: 'error',
        errorCode: 'AGENT_FAILED',
      },
    ]);
  });

  it('copies messageFields onto every log message and hides sub-agent messages from the model', () => {
    const { log } = run(
      [
        toolUse('task_1', 'Task', { description: 'look around' }, 'msg_1'),
        { ...text('t', 'Sub-agent here.', 'msg_sub'), parentToolUseId: 'task_1' },
        toolResult('task_1', 'Looked.'),
      ],
      { messageFields: { mode: 'agent', agentId: 'claude' } },
    );
    expect(log.map((m) => [m.role, m.mode, m.agentId, m.includeInContext])).toEqual([
      ['assistant', 'agent', 'claude', undefined],
      ['assistant', 'agent', 'claude', false],
      ['tool', 'agent', 'claude', undefined],
    ]);
  });

  it('keeps a message whole when a skipped bad line arrives in the middle of it', () => {
    const { log } = run([
      { type: 'text_delta', timestamp, id: 't1', delta: 'Hello ' },
      { type: 'error', timestamp, code: 'LLM_BAD_RESPONSE', message: 'not JSON', retryable: false, raw: '{' },
      { type: 'text_delta', timestamp, id: 't1', delta: 'world' },
      { type: 'text', timestamp, id: 't1', text: 'Hello world' },
    ]);
    expect(log.map((m) => [m.partType, m.content])).toEqual([
      ['error', 'not JSON'],
      [undefined, 'Hello world'],
    ]);
  });

  it('keeps parallel sub-agents apart, each after the call that started it and before its result', () => {
    const sub = (parent: string, id: string, value: string): AgentOutput => ({
      ...text(id, value, `msg_${parent}`),
      parentToolUseId: parent,
    });
    const { log } = run([
      toolUse('task_a', 'Task', { description: 'a' }, 'msg_main'),
      toolUse('task_b', 'Task', { description: 'b' }, 'msg_main'),
      { type: 'user_message', timestamp, text: 'Sub-agent A prompt', parentToolUseId: 'task_a' },
      sub('task_a', 'a1', 'A is working'),
      sub('task_b', 'b1', 'B is working'),
      sub('task_a', 'a2', 'A is done'),
      toolResult('task_b', 'B result'),
      toolResult('task_a', 'A result'),
    ]);
    expect(log.map((m) => [m.role, m.content, m.includeInContext])).toEqual([
      ['assistant', null, undefined],
      ['user', 'Sub-agent A prompt', false],
      ['assistant', 'B is working', false],
      ['tool', 'B result', undefined],
      ['assistant', 'A is working\n\nA is done', false],
      ['tool', 'A result', undefined],
    ]);
  });

  it('measures a tool duration from its call to its result, unless the result says', () => {
    let clock = 1000;
    const processor = run([], { now: () => clock }, false);
    processor.processor.push(toolUse('c1', 'Bash', { command: 'sleep 1' }));
    clock += 250;
    processor.processor.push(toolResult('c1', ''));
    processor.processor.push(toolUse('c2', 'Bash', {}));
    processor.processor.push({ ...toolResult('c2', ''), durationMs: 42 } as AgentOutput);
    expect(processor.log.filter((m) => m.role === 'tool').map((m) => m.duration)).toEqual([250, 42]);
  });

  it('refuses a non-positive timeout and events after end', () => {
    expect(() => createMessageProcessor({ onLogMessage() {}, pendingTimeoutMs: 0 })).toThrow(
      /pendingTimeoutMs/,
    );
    const { processor } = run([]);
    expect(() => processor.push(text('t', 'late'))).toThrow(/ended/);
  });
});

describe('createMessageProcessor: calls that never get a result', () => {
  it('answers a call after pendingTimeoutMs, even when no more events come', () => {
    vi.useFakeTimers({ now: Date.parse(timestamp) });
    const { log, display, processor } = run(
      [toolUse('c1', 'Bash', { command: 'sleep 99' }, 'msg_1')],
      { pendingTimeoutMs: 1000 },
      false,
    );
    expect(processor.pendingToolCalls).toBe(1);
    vi.advanceTimersByTime(999);
    expect(log).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(processor.pendingToolCalls).toBe(0);
    expect(log.map((m) => [m.role, m.tool_call_id, m.interrupted])).toEqual([
      ['assistant', undefined, undefined],
      ['tool', 'c1', true],
    ]);
    expect(display.at(-1)?.toolExecution).toMatchObject({
      status: 'unfinished',
      output: '',
      toolUseId: 'c1',
    });
    // The real result, too late: kept (hidden from the model, which had the interrupted one) and
    // shown as an update of the unfinished execution.
    processor.push(toolResult('c1', 'finally'));
    processor.end();
    expect(log.at(-1)).toMatchObject({
      role: 'tool',
      tool_call_id: 'c1',
      content: 'finally',
      includeInContext: false,
    });
    const [unfinished, completed] = display.filter((m) => m.partType === 'tool_execution');
    expect(completed?.id).toBe(unfinished?.id);
    expect(completed?.toolExecution).toMatchObject({ output: 'finally', toolUseId: 'c1' });
    expect(completed?.toolExecution?.status).toBeUndefined();
    const view = new DisplayView();
    for (const message of display) view.add(message);
    expect(view.messages).toEqual(toDisplayMessages(log));
    expect(view.messages.filter((m) => m.partType === 'tool_execution')).toEqual([completed]);
  });

  it('times out only the calls that waited long enough', () => {
    vi.useFakeTimers({ now: Date.parse(timestamp) });
    const { log, processor } = run([toolUse('c1', 'Bash', {})], { pendingTimeoutMs: 1000 }, false);
    vi.advanceTimersByTime(600);
    processor.push(toolResult('c1', 'ok'));
    processor.push(toolUse('c2', 'Bash', {}));
    vi.advanceTimersByTime(600);
    expect(processor.pendingToolCalls).toBe(1);
    vi.advanceTimersByTime(400);
    expect(processor.pendingToolCalls).toBe(0);
    expect(log.filter((m) => m.interrupted).map((m) => m.tool_call_id)).toEqual(['c2']);
  });

  it('waits in steps longer than a timer can (no busy loop)', () => {
    vi.useFakeTimers({ now: Date.parse(timestamp) });
    const { log, processor } = run([toolUse('c1', 'Bash', {})], { pendingTimeoutMs: 2 ** 32 }, false);
    vi.advanceTimersByTime(2 ** 31);
    expect(vi.getTimerCount()).toBe(1);
    expect(processor.pendingToolCalls).toBe(1);
    vi.advanceTimersByTime(2 ** 31);
    expect(processor.pendingToolCalls).toBe(0);
    expect(log.at(-1)?.interrupted).toBe(true);
  });

  it('reports a callback that threw inside the timer on the next call, not as an uncaught error', () => {
    vi.useFakeTimers({ now: Date.parse(timestamp) });
    let failing = false;
    const processor = createMessageProcessor({
      pendingTimeoutMs: 100,
      onLogMessage: () => {
        if (failing) throw new Error('disk full');
      },
    });
    processor.push(toolUse('c1', 'Bash', {}));
    failing = true;
    vi.advanceTimersByTime(100);
    failing = false;
    expect(() => processor.push(text('t', 'next'))).toThrow('disk full');
  });

  it('answers waiting calls at end with the given reason', () => {
    const log: ConversationMessage[] = [];
    const processor = createMessageProcessor({ onLogMessage: (m) => log.push(m) });
    processor.push(toolUse('c9', 'Read', { file_path: 'x' }));
    processor.end('the agent was killed');
    expect(log.at(-1)?.content).toMatch(/the agent was killed/);
    expect(processor.pendingToolCalls).toBe(0);
  });
});

describe('createMessageProcessor: the display view', () => {
  it('merges each call with its result where the result is, and equals toDisplayMessages(log)', () => {
    const { log, display } = run([
      { type: 'user_message', timestamp, text: 'Go' },
      { type: 'reasoning', timestamp, id: 'r', text: 'Two reads.' },
      text('t', 'Reading.'),
      toolUse('c1', 'Read', { file_path: 'a.txt' }),
      toolUse('c2', 'Read', { file_path: 'b.txt' }),
      toolResult('c2', 'bbb'),
      toolResult('c1', 'nope', true),
      toolResult('c3', 'who called me?'),
    ]);
    expect(display.map((m) => [m.partType, m.content])).toEqual([
      [undefined, 'Go'],
      ['thinking', 'Two reads.'],
      [undefined, 'Reading.'],
      ['tool_execution', 'Read b.txt'],
      ['tool_execution', 'Read a.txt — failed: nope'],
      ['tool_result', 'who called me?'],
    ]);
    expect(display[4]?.toolExecution).toMatchObject({
      toolName: 'Read',
      input: { file_path: 'a.txt' },
      isError: true,
    });
    expect(display.every(isValidConversationMessage)).toBe(true);
    expect(display).toEqual(toDisplayMessages(log));
  });

  it('passes the log through unmerged with merge: false', () => {
    const { log, display } = run([text('t', 'x'), toolUse('c1', 'Read', {}), toolResult('c1', 'y')], {
      merge: false,
    });
    expect(display).toEqual(log);
  });
});
