import { type AgentOutput, CairnError, type ModelRequest, type ModelStream } from '@cairn/core';
import {
  MALFORMED_SSE_DATA,
  type MockProviderServer,
  type ScriptTurn,
  startMockProviderServer,
} from '@cairn/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOpenAIAdapter } from './openai-adapter.js';
import type { OpenAIAdapterOptions } from './openai-adapter-options.js';

// Every test goes through the real `openai` SDK to a loopback server speaking Chat Completions.

let server: MockProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setUp(turns: ScriptTurn[], options: Partial<OpenAIAdapterOptions> = {}) {
  server = await startMockProviderServer({ provider: 'openai', turns });
  const adapter = createOpenAIAdapter({
    model: 'gpt-test',
    apiKey: 'sk-test',
    baseURL: server.baseURL,
    ...options,
  });
  return { server, adapter };
}

async function drain(stream: ModelStream): Promise<AgentOutput[]> {
  const events: AgentOutput[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const ask: ModelRequest = {
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Read a.txt' },
  ],
  tools: [
    {
      name: 'read',
      description: 'Read a file',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
    },
  ],
};
const readTurn: ScriptTurn = {
  text: 'Reading it.',
  toolCalls: [{ id: 'call_read', name: 'read', arguments: { path: 'a.txt' } }],
  chunkSize: 4,
};

describe('createOpenAIAdapter', () => {
  it('generates with one non-streaming request carrying the model, messages and tools', async () => {
    const { server, adapter } = await setUp([readTurn]);
    const result = await adapter.generate(ask);
    expect(result).toMatchObject({
      message: {
        role: 'assistant',
        content: 'Reading it.',
        tool_calls: [
          { id: 'call_read', type: 'function', function: { name: 'read', arguments: '{"path":"a.txt"}' } },
        ],
      },
      finishReason: 'tool_calls',
      rawFinishReason: 'tool_calls',
      responseId: 'chatcmpl-mock0',
      modelId: 'gpt-test',
    });
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.body).toEqual({
      model: 'gpt-test',
      messages: ask.messages,
      tools: [
        {
          type: 'function',
          function: { name: 'read', description: 'Read a file', parameters: ask.tools?.[0]?.inputSchema },
        },
      ],
      stream: false,
    });
  });

  it('streams text and tool-argument deltas, asking for the usage chunk, into the same message as generate', async () => {
    const { server, adapter } = await setUp([readTurn, readTurn]);
    const stream = adapter.stream(ask);
    const events = await drain(stream);
    const streamed = await stream.result;
    const types = events.map((event) => event.type);
    expect(types.filter((type) => type === 'tool_input_delta').length).toBeGreaterThan(1);
    expect(types.lastIndexOf('tool_input_delta')).toBeLessThan(types.indexOf('tool_use'));
    expect(types.slice(-2)).toEqual(['usage', 'finish']);
    expect(events.at(-1)).toMatchObject({
      type: 'finish',
      reason: 'tool_calls',
      messageId: 'chatcmpl-mock0',
    });
    expect(server.requests[0]?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    const generated = await adapter.generate(ask);
    expect(streamed.message).toEqual(generated.message);
    expect(streamed.usage).toEqual(generated.usage);
  });

  it('reads the reasoning an OpenAI-compatible server sends, and never sends it back', async () => {
    const { server, adapter } = await setUp([
      { reasoning: 'The user greets me.', text: 'Hi!' },
      { text: 'Bye.' },
    ]);
    const stream = adapter.stream({ messages: [{ role: 'user', content: 'Hi' }] });
    const events = await drain(stream);
    const { message } = await stream.result;
    expect(message).toEqual({
      role: 'assistant',
      content: 'Hi!',
      reasoning: [{ text: 'The user greets me.' }],
    });
    expect(events.map((event) => event.type).indexOf('reasoning')).toBeLessThan(
      events.map((event) => event.type).indexOf('text_delta'),
    );
    await adapter.generate({
      messages: [{ role: 'user', content: 'Hi' }, message, { role: 'user', content: 'Bye' }],
    });
    expect(server.requests[1]?.body).toHaveProperty(['messages', 1], {
      role: 'assistant',
      content: 'Hi!',
    });
  });

  it('maps settings, sending max_tokens to a compatible server unless told otherwise', async () => {
    const settings = { maxOutputTokens: 50, temperature: 0, topP: 0.5, stopSequences: ['END'], seed: 1 };
    const mapped = { temperature: 0, top_p: 0.5, stop: ['END'], seed: 1 };
    const { server, adapter } = await setUp([{ text: 'a' }, { text: 'b' }]);
    await adapter.generate({ messages: [{ role: 'user', content: 'x' }], settings });
    expect(server.requests[0]?.body).toMatchObject({ max_tokens: 50, ...mapped });
    const explicit = createOpenAIAdapter({
      model: 'gpt-test',
      apiKey: 'k',
      baseURL: server.baseURL,
      maxTokensParameter: 'max_completion_tokens',
    });
    await explicit.generate({ messages: [{ role: 'user', content: 'x' }], settings });
    expect(server.requests[1]?.body).toMatchObject({ max_completion_tokens: 50, ...mapped });
    expect(server.requests[1]?.body).not.toHaveProperty('max_tokens');
  });

  it('passes providerOptions.openai through as body fields and ignores other providers', async () => {
    const { server, adapter } = await setUp([{ text: 'a' }]);
    await adapter.generate({
      messages: [{ role: 'user', content: 'x' }],
      providerOptions: {
        openai: { reasoning_effort: 'low', parallel_tool_calls: false },
        anthropic: { thinking: {} },
      },
    });
    expect(server.requests[0]?.body).toEqual({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'x' }],
      reasoning_effort: 'low',
      parallel_tool_calls: false,
      stream: false,
    });
  });

  it('sends the API key, organization, adapter headers and request headers', async () => {
    const { server, adapter } = await setUp([{ text: 'a' }], {
      organization: 'org-1',
      headers: { 'x-app': 'cairn' },
    });
    await adapter.generate({ messages: [{ role: 'user', content: 'x' }], headers: { 'x-trace': 't1' } });
    expect(server.requests[0]?.headers).toMatchObject({
      authorization: 'Bearer sk-test',
      'openai-organization': 'org-1',
      'x-app': 'cairn',
      'x-trace': 't1',
    });
  });

  it('retries a 429 after its retry-after-ms, once, and never retries a 401', async () => {
    const rateLimited = await setUp([{ fault: { status: 429, retryAfterMs: 20 } }, { text: 'ok' }]);
    expect((await rateLimited.adapter.generate(ask)).message.content).toBe('ok');
    expect(rateLimited.server.requests).toHaveLength(2);
    await rateLimited.server.close();
    const unauthorized = await setUp([{ fault: { status: 401 } }, { text: 'never' }]);
    await expect(unauthorized.adapter.generate(ask)).rejects.toMatchObject({
      code: 'LLM_AUTH',
      retryable: false,
    });
    expect(unauthorized.server.requests).toHaveLength(1);
  });

  it('gives up after maxRetries with the classified error', async () => {
    const { server, adapter } = await setUp(
      [{ fault: { status: 500 } }, { fault: { status: 500 } }, { text: 'late' }],
      { maxRetries: 1 },
    );
    const stream = adapter.stream(ask);
    const events = await drain(stream);
    await expect(stream.result).rejects.toMatchObject({ code: 'LLM_UNAVAILABLE', retryable: true });
    expect(events.map((event) => event.type)).toEqual(['error', 'finish']);
    expect(server.requests).toHaveLength(2);
  });

  it('classifies a context overflow', async () => {
    const { adapter } = await setUp([{ fault: { status: 400, contextOverflow: true } }]);
    await expect(adapter.generate(ask)).rejects.toMatchObject({
      code: 'LLM_CONTEXT_OVERFLOW',
      retryable: false,
    });
  });

  it('never replays a stream cut after output', async () => {
    const { server, adapter } = await setUp([{ ...readTurn, cutAfterEvents: 4 }, readTurn]);
    const stream = adapter.stream(ask);
    const events = await drain(stream);
    await expect(stream.result).rejects.toBeInstanceOf(CairnError);
    expect(events.at(-2)).toMatchObject({ type: 'error', fatal: true });
    expect(events.at(-1)).toMatchObject({ type: 'finish', reason: 'error' });
    expect(server.requests).toHaveLength(1);
  });

  it('reports malformed stream data as LLM_BAD_RESPONSE with the raw line', async () => {
    const { adapter } = await setUp([{ text: 'Hello there', malformedAfterEvents: 2 }]);
    const stream = adapter.stream(ask);
    const events = await drain(stream);
    expect(events.at(-2)).toMatchObject({ type: 'error', code: 'LLM_BAD_RESPONSE', raw: MALFORMED_SSE_DATA });
    await expect(stream.result).rejects.toMatchObject({ code: 'LLM_BAD_RESPONSE' });
  });

  it('ends with finish aborted and no dangling tool call when aborted mid-stream', async () => {
    const { adapter } = await setUp([{ ...readTurn, chunkSize: 1, chunkDelayMs: 5 }]);
    const controller = new AbortController();
    const events: AgentOutput[] = [];
    const stream = adapter.stream({ ...ask, signal: controller.signal });
    for await (const event of stream) {
      events.push(event);
      if (event.type === 'tool_input_delta') controller.abort();
    }
    await expect(stream.result).rejects.toMatchObject({ code: 'LLM_ABORTED' });
    expect(events.at(-1)).toMatchObject({ type: 'finish', reason: 'aborted' });
    expect(events.filter((event) => event.type === 'tool_use')).toEqual([]);
  });

  it('times out a slow server with LLM_TIMEOUT', async () => {
    const { adapter } = await setUp([{ text: 'late', delayMs: 2_000 }], { timeoutMs: 100, maxRetries: 0 });
    await expect(adapter.generate(ask)).rejects.toMatchObject({ code: 'LLM_TIMEOUT' });
  });

  it('refuses a request whose tool choice names no tool before calling the server', async () => {
    const { server, adapter } = await setUp([{ text: 'never' }]);
    await expect(adapter.generate({ ...ask, toolChoice: { toolName: 'write' } })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    const stream = adapter.stream({ ...ask, toolChoice: { toolName: 'write' } });
    expect((await drain(stream)).at(-2)).toMatchObject({ type: 'error', code: 'INVALID_ARGUMENT' });
    expect(server.requests).toHaveLength(0);
  });
});

describe('createOpenAIAdapter options', () => {
  it('is created without any API key; a call then fails with LLM_AUTH naming OPENAI_API_KEY, sending nothing', async () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    try {
      server = await startMockProviderServer({ provider: 'openai', turns: [{ text: 'never' }] });
      const adapter = createOpenAIAdapter({ model: 'gpt-test', baseURL: server.baseURL });
      const failure = {
        code: 'LLM_AUTH',
        retryable: false,
        message: expect.stringContaining('OPENAI_API_KEY'),
      };
      await expect(adapter.generate(ask)).rejects.toMatchObject(failure);
      const events = await drain(adapter.stream(ask));
      expect(events.map((event) => event.type)).toEqual(['error', 'finish']);
      expect(events[0]).toMatchObject({ type: 'error', ...failure });
      expect(server.requests).toHaveLength(0);
      // Set later, the key is read by the next call.
      vi.stubEnv('OPENAI_API_KEY', 'sk-later');
      expect((await adapter.generate(ask)).message.content).toBe('never');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('throws INVALID_ARGUMENT for a baseURL that is not a URL', () => {
    expect(() => createOpenAIAdapter({ model: 'm', apiKey: 'k', baseURL: 'not a url' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });

  it('describes itself', () => {
    const adapter = createOpenAIAdapter({ model: 'gpt-4.1', apiKey: 'k' });
    expect([adapter.provider, adapter.modelId]).toEqual(['openai', 'gpt-4.1']);
    expect(adapter.capabilities).toMatchObject({ streaming: true, toolCalls: true, parallelToolCalls: true });
  });
});
