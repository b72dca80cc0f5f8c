import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agentOutputArb } from '../../test/arbitraries.js';
import { CairnError } from '../errors/cairn-error.js';
import { type AgentOutput, AgentOutputSchema, isAgentOutput, parseAgentOutput } from './agent-output.js';

const timestamp = '2026-11-22T08:51:01.036Z';

describe('AgentOutput', () => {
  const examples: AgentOutput[] = [
    {
      type: 'session_start',
      timestamp,
      sessionId: 's1',
      model: 'claude-opus-4-8',
      tools: ['Write'],
      cwd: '/w',
    },
    { type: 'user_message', timestamp, text: 'Create hello.txt' },
    { type: 'text_delta', timestamp, id: 'b0', delta: 'Hel', messageId: 'msg_1' },
    { type: 'text', timestamp, id: 'b0', text: 'Hello', messageId: 'msg_1' },
    { type: 'reasoning_delta', timestamp, id: 'r0', delta: 'Let me' },
    {
      type: 'reasoning',
      timestamp,
      id: 'r0',
      text: 'Let me think',
      providerMetadata: { anthropic: { signature: 'sig' } },
    },
    { type: 'tool_input_delta', timestamp, id: 'toolu_1', toolName: 'Write', delta: '{"file_path":' },
    {
      type: 'tool_use',
      timestamp,
      id: 'toolu_1',
      toolName: 'Write',
      input: { file_path: 'hello.txt' },
      messageId: 'msg_1',
    },
    {
      type: 'tool_result',
      timestamp,
      toolUseId: 'toolu_1',
      toolName: 'Write',
      output: 'File created',
      isError: false,
      structured: { type: 'create', filePath: 'hello.txt' },
    },
    { type: 'usage', timestamp, usage: { inputTokens: 19024, outputTokens: 10, cacheReadTokens: 0 } },
    { type: 'partial_object', timestamp, object: { city: 'Par' } },
    { type: 'finish', timestamp, reason: 'tool_calls', rawReason: 'tool_use' },
    {
      type: 'error',
      timestamp,
      code: 'LLM_BAD_RESPONSE',
      message: 'not JSON',
      retryable: false,
      raw: '{oops',
    },
    {
      type: 'session_result',
      timestamp,
      sessionId: 's1',
      isError: false,
      turns: 5,
      durationMs: 537,
      costUsd: 0.49,
      result: 'Done.',
    },
    {
      type: 'retry',
      timestamp,
      attempt: 1,
      maxAttempts: 10,
      delayMs: 555.4,
      status: 529,
      error: 'overloaded',
    },
    {
      type: 'task_progress',
      timestamp,
      taskId: 'a1',
      toolUseId: 'toolu_1',
      status: 'completed',
      description: 'List the directory',
      totalTokens: 15,
      toolUses: 1,
      durationMs: 825,
    },
    {
      type: 'status',
      timestamp,
      status: 'interrupted',
      message: '[Request interrupted by user for tool use]',
    },
    { type: 'unknown', timestamp, source: 'claude-code', raw: { type: 'future_line', x: 1 } },
  ];

  it.each(examples.map((event) => [event.type, event] as const))('accepts a %s event', (_type, event) => {
    expect(isAgentOutput(event)).toBe(true);
    expect(parseAgentOutput(event)).toBe(event);
  });

  it('has an example of every event type the schema defines', () => {
    const schemaTypes = AgentOutputSchema.options.map((option) => option.shape.type.value);
    expect(new Set(examples.map((event) => event.type))).toEqual(new Set(schemaTypes));
  });

  it.each(
    [
      ['an unknown type', { type: 'telepathy', timestamp }, 'type'],
      ['a missing timestamp', { type: 'text', id: 'b', text: 'x' }, 'timestamp'],
      [
        'a timestamp that is not ISO 8601',
        { type: 'text', id: 'b', text: 'x', timestamp: 'yesterday' },
        'timestamp',
      ],
      [
        'a tool_result without isError',
        { type: 'tool_result', timestamp, toolUseId: 't', output: '' },
        'isError',
      ],
      [
        'an error with an unknown code',
        { type: 'error', timestamp, code: 'OOPS', message: 'x', retryable: false },
        'code',
      ],
      ['an unknown finish reason', { type: 'finish', timestamp, reason: 'done' }, 'reason'],
      ['a retry numbered from 0', { type: 'retry', timestamp, attempt: 0 }, 'attempt'],
      ['a task_progress without status', { type: 'task_progress', timestamp, taskId: 't' }, 'status'],
      [
        'negative token counts',
        { type: 'usage', timestamp, usage: { inputTokens: -1, outputTokens: 0 } },
        'usage.inputTokens',
      ],
      [
        'tool input JSON cannot hold',
        { type: 'tool_use', timestamp, id: 't', toolName: 'f', input: { n: 1n } },
        'input',
      ],
    ].map(([label, value, path]) => [label, path, value] as const),
  )('rejects %s, naming %s', (_label, path, value) => {
    expect(isAgentOutput(value)).toBe(false);
    expect(() => parseAgentOutput(value)).toThrow(CairnError);
    expect(() => parseAgentOutput(value)).toThrow(`AgentOutput event at ${path}:`);
  });

  it('round-trips every generated event through JSON', () => {
    fc.assert(
      fc.property(agentOutputArb, (event) => {
        expect(parseAgentOutput(JSON.parse(JSON.stringify(event)))).toEqual(event);
      }),
      { numRuns: 100 },
    );
  });

  it('never throws anything but CairnError on junk', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withBigInt: true, withMap: true }), (value) => {
        try {
          parseAgentOutput(value);
        } catch (error) {
          expect(CairnError.is(error, 'INVALID_MESSAGE')).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
