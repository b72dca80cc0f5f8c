import { type AgentOutput, CairnError, type ModelRequest } from '@cairn/core';
import { type MockProviderServer, type ScriptTurn, startMockProviderServer } from '@cairn/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAnthropicAdapter } from './anthropic-adapter.js';
import type { AnthropicAdapterOptions } from './anthropic-adapter-options.js';

// The adapter through the real @anthropic-ai/sdk client against @cairn/testing's loopback server
// speaking the Messages API wire format.

let server: MockProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(turns: ScriptTurn[], options: Partial<AnthropicAdapterOptions> = {}) {
  server = await startMockProviderServer({ provider: 'anthropic', turns });
  const adapter = createAnthropicAdapter({
    model: 'claude-test',
    baseURL: server.baseURL,
    apiKey: 'sk-test',
    ...options,
  });
  return { adapter, server };
}

async function collect(stream: AsyncIterable<AgentOutput>): Promise<AgentOutput[]> {
  const events: AgentOutput[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

async function rejection(promise: Promise<unknown>): Promise<CairnError> {
  try {
    await promise;
  } catch (error) {
    if (CairnError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a CairnError');
}

const hello: ModelRequest = { messages: [{ role: 'user', content: 'Hello' }] };

describe('createAnthropicAdapter', () => {
  it('sends the converted conversation, tools, settings and cache breakpoints to POST /v1/messages', async () => {
    const { adapter, server } = await setup([{ text: 'Rome: 24°C' }], {
      headers: { 'x-team': 'cairn' },
      maxOutputTokens: 1000,
    });
    await adapter.generate({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Paris and Oslo?' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [
            {
              id: 'toolu_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
            {
              id: 'toolu_2',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: '18°C' },
        { role: 'tool', tool_call_id: 'toolu_2', content: 'unknown city', isError: true },
        { role: 'user', content: 'And Rome?' },
      ],
      tools: [
        { name: 'get_weather', description: 'Weather', inputSchema: { type: 'object', properties: {} } },
      ],
      toolChoice: 'auto',
      settings: { stopSequences: ['###'], temperature: 0.5 },
      providerOptions: { anthropic: { thinking: { type: 'enabled', budget_tokens: 512 } } },
      headers: { 'x-request': 'r1' },
    });
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/messages', stream: false });
    expect(request?.headers).toMatchObject({
      authorization: 'Bearer sk-test',
      'x-team': 'cairn',
      'x-request': 'r1',
    });
    expect(request?.headers['x-stainless-retry-count']).toBe('0');
    const ephemeral = { type: 'ephemeral' };
    expect(request?.body).toEqual({
      model: 'claude-test',
      max_tokens: 1000,
      system: [{ type: 'text', text: 'Be brief.', cache_control: ephemeral }],
      messages: [
        {
          role: 'user',
          content: [{ type: 'text', text: 'Weather in Paris and Oslo?', cache_control: ephemeral }],
        },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { city: 'Oslo' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: '18°C' },
            { type: 'tool_result', tool_use_id: 'toolu_2', content: 'unknown city', is_error: true },
            { type: 'text', text: 'And Rome?', cache_control: ephemeral },
          ],
        },
      ],
      tools: [
        {
          name: 'get_weather',
          description: 'Weather',
          input_schema: { type: 'object', properties: {} },
          cache_control: ephemeral,
        },
      ],
      tool_choice: { type: 'auto' },
      stop_sequences: ['###'],
      // No `thinking`: the open tool loop began without it, which the API would refuse.
    });
  });

  it('streams thinking with its signature and replays it on the next request, but not to another provider', async () => {
    const { adapter, server } = await setup([
      { reasoning: 'The user greets me.', text: 'Hi!', toolCalls: [{ name: 'wave', arguments: {} }] },
      { text: 'Done.' },
    ]);
    const stream = adapter.stream(hello);
    const events = await collect(stream);
    const { message } = await stream.result;
    const signature = message.reasoning?.[0]?.providerMetadata?.anthropic?.signature;
    expect(typeof signature).toBe('string');
    expect(events.map((event) => event.type)).toEqual([
      'reasoning_delta',
      'reasoning_delta',
      'reasoning_delta',
      'reasoning',
      'text_delta',
      'text',
      'tool_input_delta',
      'tool_use',
      'usage',
      'finish',
    ]);

    await adapter.generate({
      messages: [
        ...hello.messages,
        message,
        { role: 'tool', tool_call_id: message.tool_calls?.[0]?.id ?? '', content: 'waved' },
        {
          role: 'assistant',
          content: 'From Gemini.',
          reasoning: [{ text: 'gemini thought', providerMetadata: { gemini: { thoughtSignature: 'g' } } }],
        },
        { role: 'user', content: 'Thanks' },
      ],
    });
    const replayed = (server.requests[1]?.body as { messages: { content: unknown[] }[] } | undefined)
      ?.messages;
    expect(replayed?.[1]?.content[0]).toEqual({
      type: 'thinking',
      thinking: 'The user greets me.',
      signature,
    });
    expect(replayed?.[3]?.content).toEqual([{ type: 'text', text: 'From Gemini.' }]);
  });

  it('maps 529 overloaded to LLM_UNAVAILABLE, retryable, after retrying maxRetries times', async () => {
    const overloaded = { fault: { status: 529, retryAfterMs: 5 } };
    const { adapter, server } = await setup([overloaded, overloaded], { maxRetries: 1 });
    const error = await rejection(adapter.generate(hello));
    expect(error).toMatchObject({ code: 'LLM_UNAVAILABLE', retryable: true, details: { status: 529 } });
    expect(server.requests).toHaveLength(2);
  });

  it('retries a 529 and succeeds, streaming', async () => {
    const { adapter, server } = await setup([{ fault: { status: 529, retryAfterMs: 5 } }, { text: 'Back.' }]);
    const stream = adapter.stream(hello);
    await collect(stream);
    expect((await stream.result).message.content).toBe('Back.');
    expect(server.requests).toHaveLength(2);
  });

  it('maps "prompt is too long" to LLM_CONTEXT_OVERFLOW, not retried', async () => {
    const overflow = { fault: { status: 400, contextOverflow: true } };
    const { adapter, server } = await setup([overflow, overflow]);
    expect(await rejection(adapter.generate(hello))).toMatchObject({
      code: 'LLM_CONTEXT_OVERFLOW',
      retryable: false,
    });
    const stream = adapter.stream(hello);
    const events = await collect(stream);
    expect(events.at(-2)).toMatchObject({ type: 'error', code: 'LLM_CONTEXT_OVERFLOW', fatal: true });
    expect(events.at(-1)).toMatchObject({ type: 'finish', reason: 'error' });
    expect(server.requests).toHaveLength(2);
  });

  it('ends a stream whose server sends an overloaded error event mid-way with LLM_UNAVAILABLE, not replayed', async () => {
    const rawSse = [
      'event: message_start',
      'data: {"type":"message_start","message":{"id":"msg_x","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":3,"output_tokens":1}}}',
      '',
      'event: content_block_start',
      'data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
      '',
      'event: content_block_delta',
      'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Part"}}',
      '',
      'event: error',
      'data: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
      '',
      '',
    ].join('\n');
    const { adapter, server } = await setup([{ rawSse }, { text: 'never' }]);
    const stream = adapter.stream(hello);
    const events = await collect(stream);
    expect(events.map((event) => event.type)).toEqual(['text_delta', 'text', 'usage', 'error', 'finish']);
    expect(events[3]).toMatchObject({ code: 'LLM_UNAVAILABLE', retryable: true, fatal: true });
    expect(await rejection(stream.result)).toMatchObject({ code: 'LLM_UNAVAILABLE' });
    expect(server.requests).toHaveLength(1);
  });

  it('retries a stream whose first event is an overloaded error: nothing had reached the caller', async () => {
    const rawSse = [
      'event: error',
      'data: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
      '',
      '',
    ].join('\n');
    const { adapter, server } = await setup([{ rawSse }, { text: 'Back.' }]);
    const stream = adapter.stream(hello);
    await collect(stream);
    expect((await stream.result).message.content).toBe('Back.');
    expect(server.requests).toHaveLength(2);
  });

  it('sends a non-streaming request with a large max_tokens (the SDK would refuse it without a timeout)', async () => {
    const { adapter, server } = await setup([{ text: 'Long answer.' }], { maxOutputTokens: 64_000 });
    expect((await adapter.generate(hello)).message.content).toBe('Long answer.');
    expect(server.requests[0]?.body).toMatchObject({ max_tokens: 64_000 });
  });

  it('times out a slow answer with LLM_TIMEOUT (timeoutMs)', async () => {
    const { adapter } = await setup([{ text: 'late', delayMs: 2000 }], { timeoutMs: 100, maxRetries: 0 });
    expect(await rejection(adapter.generate(hello))).toMatchObject({ code: 'LLM_TIMEOUT' });
  });

  it('refuses a request with nothing to send before calling the API', async () => {
    const { adapter, server } = await setup([]);
    const empty: ModelRequest = { messages: [{ role: 'system', content: 'Only a system prompt.' }] };
    expect(await rejection(adapter.generate(empty))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    const stream = adapter.stream(empty);
    const events = await collect(stream);
    expect(events).toEqual([
      expect.objectContaining({ type: 'error', code: 'INVALID_ARGUMENT', fatal: true }),
      expect.objectContaining({ type: 'finish', reason: 'error' }),
    ]);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses bad options with INVALID_ARGUMENT', () => {
    for (const options of [
      { model: '' },
      { model: 'm', maxRetries: -1 },
      { model: 'm', maxOutputTokens: 0 },
    ]) {
      expect(() => createAnthropicAdapter(options)).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
    }
  });

  it('is created without any credentials; a call then fails with LLM_AUTH naming ANTHROPIC_API_KEY', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', '');
    vi.stubEnv('ANTHROPIC_AUTH_TOKEN', '');
    try {
      server = await startMockProviderServer({ provider: 'anthropic', turns: [{ text: 'never' }] });
      const adapter = createAnthropicAdapter({ model: 'claude-test', baseURL: server.baseURL });
      const failure = {
        code: 'LLM_AUTH',
        retryable: false,
        message: expect.stringContaining('ANTHROPIC_API_KEY'),
      };
      expect(await rejection(adapter.generate(hello))).toMatchObject(failure);
      const events = await collect(adapter.stream(hello));
      expect(events).toEqual([
        expect.objectContaining({ type: 'error', ...failure }),
        expect.objectContaining({ type: 'finish', reason: 'error' }),
      ]);
      expect(server.requests).toHaveLength(0);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('describes itself', () => {
    const adapter = createAnthropicAdapter({ model: 'claude-test', apiKey: 'k' });
    expect(adapter).toMatchObject({ provider: 'anthropic', modelId: 'claude-test' });
    expect(adapter.capabilities).toMatchObject({ streaming: true, toolCalls: true, reasoning: true });
  });
});
