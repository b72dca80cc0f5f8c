import OpenAI, { type APIError } from 'openai';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { mockServerPerTest } from './mock-server-per-test.js';
import { openAIResponsesRequestProblem } from './openai-responses-request-rules.js';
import type { MockTurns } from './start-mock-provider-server.js';

const mock = mockServerPerTest();

async function clientFor(turns: MockTurns): Promise<OpenAI> {
  const server = await mock.start({ provider: 'openai-responses', turns });
  return new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-mock', maxRetries: 0 });
}

// A freeform tool as Codex declares `apply_patch`, and a function tool as it declares `exec_command`.
const tools = [
  { type: 'custom' as const, name: 'apply_patch', description: 'Edit files.' },
  {
    type: 'function' as const,
    name: 'exec_command',
    description: 'Run a command.',
    parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] },
    strict: false,
  },
];

describe('OpenAI Responses mock server through the official SDK', () => {
  it('streams reasoning, text, a function call and a custom tool call, then usage', async () => {
    const client = await clientFor([
      {
        reasoning: 'Plan it.',
        text: 'Running it.',
        toolCalls: [
          { name: 'exec_command', arguments: { cmd: 'ls' } },
          { name: 'apply_patch', arguments: '*** Begin Patch\n*** End Patch' },
        ],
        usage: { inputTokens: 20, outputTokens: 9, cacheReadTokens: 4, reasoningTokens: 3 },
        chunkSize: 4,
      },
    ]);
    const stream = await client.responses.create({ model: 'gpt-mock', input: 'hi', tools, stream: true });
    const events: ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const types = events.map((event) => event.type);
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    const deltas = (type: string) =>
      events.flatMap((event) => (event.type === type && 'delta' in event ? [event.delta] : []));
    expect(deltas('response.reasoning_summary_text.delta').join('')).toBe('Plan it.');
    expect(deltas('response.output_text.delta')).toEqual(['Runn', 'ing ', 'it.']);
    expect(deltas('response.function_call_arguments.delta').join('')).toBe('{"cmd":"ls"}');
    expect(deltas('response.custom_tool_call_input.delta').join('')).toBe('*** Begin Patch\n*** End Patch');

    const completed = events.at(-1);
    if (completed?.type !== 'response.completed') throw new Error('no completed event');
    const { output, usage, status } = completed.response;
    expect(status).toBe('completed');
    expect(output.map((item) => item.type)).toEqual([
      'reasoning',
      'message',
      'function_call',
      'custom_tool_call',
    ]);
    expect(output[2]).toMatchObject({
      name: 'exec_command',
      call_id: 'call_mock0_0',
      arguments: '{"cmd":"ls"}',
    });
    expect(output[3]).toMatchObject({ name: 'apply_patch', call_id: 'call_mock0_1' });
    expect(usage).toEqual({
      input_tokens: 20,
      input_tokens_details: { cached_tokens: 4 },
      output_tokens: 9,
      output_tokens_details: { reasoning_tokens: 3 },
      total_tokens: 29,
    });
  });

  it('answers a non-streaming request with the same response object', async () => {
    const client = await clientFor([{ text: 'Hello!' }]);
    const response = await client.responses.create({ model: 'gpt-mock', input: 'hi' });
    expect(response.output_text).toBe('Hello!');
    expect(response.model).toBe('gpt-mock');
    expect(mock.server?.requests[0]).toMatchObject({ path: '/v1/responses', stream: false });
  });

  it('ends a turn cut by the token limit with response.incomplete', async () => {
    const client = await clientFor([{ text: 'Cut sh', finish: 'length' }]);
    const stream = await client.responses.create({ model: 'gpt-mock', input: 'hi', stream: true });
    const events: ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.at(-1)).toMatchObject({
      type: 'response.incomplete',
      response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
    });
  });

  it('rejects an unanswered tool call with the API error, using no turn', async () => {
    const client = await clientFor([{ text: 'never sent' }]);
    const input = [
      { type: 'function_call' as const, call_id: 'call_1', name: 'exec_command', arguments: '{}' },
      { role: 'user' as const, content: 'go on' },
    ];
    const error = await client.responses.create({ model: 'gpt-mock', input }).catch((e: APIError) => e);
    expect(error).toMatchObject({ status: 400, message: expect.stringContaining('No tool output found') });
  });

  it('answers an HTTP fault with the OpenAI error envelope', async () => {
    const client = await clientFor([{ fault: { status: 500 } }]);
    const error = await client.responses.create({ model: 'gpt-mock', input: 'hi' }).catch((e: APIError) => e);
    expect(error).toMatchObject({ status: 500, type: 'server_error' });
  });
});

describe('openAIResponsesRequestProblem', () => {
  const call = { type: 'custom_tool_call', call_id: 'c1', name: 'apply_patch', input: '' };
  const output = { type: 'custom_tool_call_output', call_id: 'c1', output: 'ok' };

  it('accepts a text input and an answered call', () => {
    expect(openAIResponsesRequestProblem({ model: 'm', input: 'hi' })).toBeUndefined();
    expect(openAIResponsesRequestProblem({ model: 'm', input: [call, output] })).toBeUndefined();
  });

  it('names the missing model, input, output or call', () => {
    expect(openAIResponsesRequestProblem({ input: 'hi' })).toMatch(/model/);
    expect(openAIResponsesRequestProblem({ model: 'm' })).toMatch(/input/);
    expect(openAIResponsesRequestProblem({ model: 'm', input: [call] })).toBe(
      'No tool output found for function call c1.',
    );
    expect(openAIResponsesRequestProblem({ model: 'm', input: [output] })).toBe(
      'No tool call found for function call output with call_id c1.',
    );
  });

  it('lets an output answer a call of the previous response', () => {
    expect(
      openAIResponsesRequestProblem({ model: 'm', previous_response_id: 'resp_1', input: [output] }),
    ).toBeUndefined();
  });
});
