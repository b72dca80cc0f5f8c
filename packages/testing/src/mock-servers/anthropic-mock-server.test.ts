import { readFileSync } from 'node:fs';
import Anthropic, { type APIError } from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import type { ScriptTurn } from '../script-turn.js';
import { createAnthropicMockProtocol } from './anthropic-mock-server.js';
import { mockServerPerTest } from './mock-server-per-test.js';
import type { MockTurns } from './start-mock-provider-server.js';

const mock = mockServerPerTest();

async function clientFor(turns: MockTurns, maxRetries = 0): Promise<Anthropic> {
  const server = await mock.start({ provider: 'anthropic', turns });
  return new Anthropic({ baseURL: server.baseURL, apiKey: 'sk-ant-mock', maxRetries });
}

const request = {
  model: 'claude-mock',
  max_tokens: 1024,
  messages: [{ role: 'user' as const, content: 'hi' }],
};
const fixture = (turn: number) =>
  readFileSync(new URL(`__fixtures__/anthropic-api/sse-turn${turn}.txt`, import.meta.url), 'utf8');

const thinkingAndParallelCalls: ScriptTurn = {
  reasoning: 'Two lookups are needed.',
  text: 'Checking both.',
  toolCalls: [
    { name: 'get_weather', arguments: { city: 'Paris' } },
    { name: 'get_time', arguments: { zone: 'Europe/Paris' } },
  ],
  usage: { inputTokens: 100, outputTokens: 40, cacheReadTokens: 60, cacheWriteTokens: 10 },
  chunkSize: 5,
};

describe('Anthropic mock server through the official SDK', () => {
  it('answers a message with thinking, text, parallel tool_use blocks and usage', async () => {
    const client = await clientFor([thinkingAndParallelCalls]);
    const message = await client.messages.create(request);
    expect(message).toMatchObject({
      id: 'msg_mock0',
      role: 'assistant',
      model: 'claude-mock',
      stop_reason: 'tool_use',
      // input_tokens excludes the cache reads and writes, as the real API counts them.
      usage: {
        input_tokens: 30,
        cache_read_input_tokens: 60,
        cache_creation_input_tokens: 10,
        output_tokens: 40,
      },
    });
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'Two lookups are needed.', signature: expect.any(String) },
      { type: 'text', text: 'Checking both.' },
      { type: 'tool_use', id: 'toolu_mock0_0', name: 'get_weather', input: { city: 'Paris' } },
      { type: 'tool_use', id: 'toolu_mock0_1', name: 'get_time', input: { zone: 'Europe/Paris' } },
    ]);
    expect(mock.server?.requests[0]).toMatchObject({
      path: '/v1/messages',
      stream: false,
      headers: expect.objectContaining({ 'anthropic-version': expect.any(String) }),
    });
  });

  it('streams the same message as deltas the SDK accumulates (thinking + signature, text, input_json)', async () => {
    const client = await clientFor([thinkingAndParallelCalls, thinkingAndParallelCalls]);
    const expected = await client.messages.create(request);
    const stream = client.messages.stream(request);
    const eventTypes: string[] = [];
    const jsonPieces: string[] = [];
    stream.on('streamEvent', (event) => {
      eventTypes.push(event.type === 'content_block_delta' ? event.delta.type : event.type);
      if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') {
        jsonPieces.push(event.delta.partial_json);
      }
    });
    const streamed = await stream.finalMessage();
    // Same content (the signature depends on the thinking text only); ids are unique per response.
    expect(streamed.content).toEqual(
      expected.content.map((block) =>
        block.type === 'tool_use' ? { ...block, id: block.id.replace('0_', '1_') } : block,
      ),
    );
    expect(streamed.stop_reason).toBe('tool_use');
    expect(streamed.usage.output_tokens).toBe(40);
    expect(eventTypes.slice(0, 3)).toEqual(['message_start', 'content_block_start', 'thinking_delta']);
    expect(eventTypes).toContain('signature_delta');
    expect(eventTypes.slice(-2)).toEqual(['message_delta', 'message_stop']);
    // Every tool_use block opens with an empty input_json_delta, then the pieces.
    expect(jsonPieces[0]).toBe('');
    expect(jsonPieces.length).toBeGreaterThan(4);
  });

  it('maps faults to the SDK error classes with the real error body and retry headers', async () => {
    const client = await clientFor([
      { fault: { status: 401 } },
      { fault: { status: 429, retryAfterSeconds: 3 } },
      { fault: { status: 500 } },
      { fault: { status: 400, contextOverflow: true } },
      { fault: { status: 529 } },
    ]);
    const call = () => client.messages.create(request).catch((error: unknown) => error);
    const auth = await call();
    expect(auth).toBeInstanceOf(Anthropic.AuthenticationError);
    expect((auth as APIError).error).toEqual({
      type: 'error',
      error: { type: 'authentication_error', message: 'invalid x-api-key' },
    });
    const limited = (await call()) as APIError;
    expect(limited).toBeInstanceOf(Anthropic.RateLimitError);
    expect(limited.headers?.get('retry-after')).toBe('3');
    expect(await call()).toBeInstanceOf(Anthropic.InternalServerError);
    const overflow = (await call()) as APIError;
    expect(overflow).toBeInstanceOf(Anthropic.BadRequestError);
    expect(overflow.message).toContain('prompt is too long');
    const overloaded = (await call()) as APIError;
    expect(overloaded.status).toBe(529);
    expect(overloaded.message).toContain('overloaded_error');
  });

  it('lets the SDK retry a 429 after retry-after-ms, then succeed', async () => {
    const client = await clientFor([{ fault: { status: 429, retryAfterMs: 20 } }, { text: 'ok' }], 1);
    const message = await client.messages.create(request);
    expect(message.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(mock.server?.requests).toHaveLength(2);
  });

  it('fails a cut stream and a malformed event', async () => {
    const client = await clientFor([
      { text: 'abcdefghij', chunkSize: 1, cutAfterEvents: 5 },
      { text: 'abcdefghij', malformedAfterEvents: 3 },
    ]);
    await expect(client.messages.stream(request).finalMessage()).rejects.toThrow();
    await expect(client.messages.stream(request).finalMessage()).rejects.toThrow(/JSON/);
  });

  it('rejects empty text blocks and unanswered tool_use blocks like the real API, unless told not to', async () => {
    const client = await clientFor([{ text: 'accepted' }]);
    const emptyText = {
      ...request,
      messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: '' }] }],
    };
    await expect(client.messages.create(emptyText)).rejects.toThrow('text content blocks must be non-empty');
    const unanswered = {
      ...request,
      messages: [
        { role: 'user' as const, content: 'hi' },
        {
          role: 'assistant' as const,
          content: [{ type: 'tool_use' as const, id: 'toolu_1', name: 'a', input: {} }],
        },
        { role: 'user' as const, content: 'never mind' },
      ],
    };
    await expect(client.messages.create(unanswered)).rejects.toThrow(
      /`tool_use` ids were found without `tool_result`/,
    );
    const server = await mock.start({
      provider: 'anthropic',
      turns: [{ text: 'accepted' }],
      validateRequests: false,
    });
    const lenient = new Anthropic({ baseURL: server.baseURL, apiKey: 'k', maxRetries: 0 });
    expect((await lenient.messages.create(emptyText)).content).toEqual([{ type: 'text', text: 'accepted' }]);
  });

  it.each([1, 2, 3, 4, 5])('replays the captured fixture turn %i byte for byte', async (turn) => {
    const rawSse = fixture(turn);
    const client = await clientFor([{ rawSse }]);
    const message = await client.messages.stream(request).finalMessage();
    const captured = rawSse
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as { type: string; delta?: { stop_reason?: string } });
    expect(message.stop_reason).toBe(
      captured.find((event) => event.type === 'message_delta')?.delta?.stop_reason,
    );
    expect(message.id).toMatch(/^msg_01Mock/);
    const toolUse = message.content.find((block) => block.type === 'tool_use');
    if (turn === 5) expect(toolUse).toBeUndefined();
    else expect(toolUse?.input).toBeTypeOf('object');
    if (turn === 1) {
      expect(message.content[0]).toMatchObject({
        type: 'text',
        text: "I'll create hello.txt with a greeting.",
      });
      expect(toolUse).toMatchObject({
        name: 'Write',
        input: { content: 'Hello, world!\nThis file was written by the mock model.\n' },
      });
    }
  });
});

describe('Anthropic mock server: forced tools and the prompt cache', () => {
  it('answers a forced tool_choice with that tool, its input the scripted text', async () => {
    const client = await clientFor([{ text: '{"name":"Paris"}' }]);
    const message = await client.messages.create({
      ...request,
      tools: [{ name: 'city', input_schema: { type: 'object' } }],
      tool_choice: { type: 'tool', name: 'city' },
    });
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toEqual([
      { type: 'tool_use', id: 'toolu_mock0_0', name: 'city', input: { name: 'Paris' } },
    ]);
  });

  it('reports usage from its prompt cache when created with promptCache', async () => {
    const server = await mock.start({
      provider: createAnthropicMockProtocol({ promptCache: true }),
      turns: [{}, {}],
    });
    const client = new Anthropic({ baseURL: server.baseURL, apiKey: 'sk-ant-mock', maxRetries: 0 });
    const cached = {
      ...request,
      system: [
        { type: 'text' as const, text: 'rules '.repeat(1000), cache_control: { type: 'ephemeral' as const } },
      ],
    };
    const first = await client.messages.create(cached);
    const second = await client.messages.stream(cached).finalMessage();
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(1024);
    expect(second.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens);
    expect(second.usage.cache_creation_input_tokens).toBe(0);
  });
});
