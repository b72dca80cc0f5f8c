import type { AgentOutput, ModelAdapter, ModelMessage } from '@cairn/core';
import { type MockProviderServer, type MockTurns, startMockProviderServer } from '@cairn/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGeminiAdapter, type GeminiAdapterOptions } from '../src/index.js';

// The adapter through the real @google/genai SDK against the Gemini mock server: what it
// sends, and the options only this adapter has. The shared behaviour is the conformance kit's.

let server: MockProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function adapterFor(
  turns: MockTurns,
  options: Partial<GeminiAdapterOptions> = {},
): Promise<ModelAdapter> {
  server = await startMockProviderServer({ provider: 'gemini', turns });
  return createGeminiAdapter({
    model: 'gemini-test',
    baseURL: server.baseURL,
    apiKey: 'test-key',
    ...options,
  });
}

const requests = () => server?.requests ?? [];

async function collect(stream: AsyncIterable<AgentOutput>): Promise<AgentOutput[]> {
  const events: AgentOutput[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const user = (content: string): ModelMessage => ({ role: 'user', content });

describe('createGeminiAdapter', () => {
  it('sends the request Gemini expects, with the key, headers and model in place', async () => {
    const adapter = await adapterFor([{ text: 'Hi!' }], { headers: { 'x-team': 'cairn' } });
    expect(adapter).toMatchObject({ provider: 'gemini', modelId: 'gemini-test' });
    const result = await adapter.generate({
      messages: [{ role: 'system', content: 'Be brief.' }, user('Hello')],
      tools: [
        {
          name: 'read_file',
          description: 'Read a file',
          inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
        },
      ],
      toolChoice: 'auto',
      settings: { maxOutputTokens: 100, temperature: 0 },
      headers: { 'x-request': '1' },
    });
    expect(result.message).toEqual({ role: 'assistant', content: 'Hi!' });
    expect(requests()[0]).toMatchObject({
      path: '/v1beta/models/gemini-test:generateContent',
      headers: expect.objectContaining({ 'x-goog-api-key': 'test-key', 'x-team': 'cairn', 'x-request': '1' }),
      body: {
        systemInstruction: { parts: [{ text: 'Be brief.' }] },
        contents: [{ role: 'user', parts: [{ text: 'Hello' }] }],
        tools: [
          {
            functionDeclarations: [
              {
                name: 'read_file',
                description: 'Read a file',
                // The SDK writes schema types as the API's Type enum.
                parameters: { type: 'OBJECT', properties: { path: { type: 'STRING' } }, required: ['path'] },
              },
            ],
          },
        ],
        toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
        generationConfig: { maxOutputTokens: 100, temperature: 0 },
      },
    });
  });

  it('streams from streamGenerateContent?alt=sse on the configured API version', async () => {
    const adapter = await adapterFor([{ text: 'streamed' }], { apiVersion: 'v1' });
    const stream = adapter.stream({ messages: [user('Hi')] });
    await collect(stream);
    expect((await stream.result).message.content).toBe('streamed');
    expect(requests()[0]).toMatchObject({
      path: '/v1/models/gemini-test:streamGenerateContent',
      stream: true,
    });
    expect(requests()[0]?.url).toContain('alt=sse');
  });

  it('keeps thoughts and signatures and sends them back on the next turn', async () => {
    const adapter = await adapterFor([
      {
        reasoning: 'Need the file.',
        text: 'Reading.',
        toolCalls: [{ name: 'read_file', arguments: { path: 'a' } }],
      },
      { text: 'It says hi.' },
    ]);
    const messages: ModelMessage[] = [user('What is in a?')];
    const first = await adapter.stream({
      messages,
      providerOptions: { gemini: { thinkingConfig: { includeThoughts: true } } },
    }).result;
    const [call] = first.message.tool_calls ?? [];
    expect(first.message.reasoning).toEqual([
      { text: 'Need the file.', providerMetadata: { gemini: { thoughtSignature: expect.any(String) } } },
    ]);
    expect(first.message.providerMetadata).toEqual({
      gemini: { [call?.id ?? '']: { thoughtSignature: expect.any(String) } },
    });
    await adapter.generate({
      messages: [...messages, first.message, { role: 'tool', tool_call_id: call?.id ?? '', content: 'hi' }],
    });
    expect(requests()[0]?.body).toHaveProperty('generationConfig', {
      thinkingConfig: { includeThoughts: true },
    });
    const sent = requests()[1]?.body as { contents: unknown[] };
    const reasoning = first.message.reasoning?.[0]?.providerMetadata?.gemini?.thoughtSignature;
    expect(sent.contents.slice(1)).toEqual([
      {
        role: 'model',
        parts: [
          { text: 'Need the file.', thought: true, thoughtSignature: reasoning },
          { text: 'Reading.' },
          { functionCall: { name: 'read_file', args: { path: 'a' } }, thoughtSignature: expect.any(String) },
        ],
      },
      { role: 'user', parts: [{ functionResponse: { name: 'read_file', response: { content: 'hi' } } }] },
    ]);
  });

  it('never retries inside the SDK: maxRetries 0 makes exactly one request', async () => {
    const adapter = await adapterFor([{ fault: { status: 503 } }, { text: 'too late' }], { maxRetries: 0 });
    await expect(adapter.generate({ messages: [user('Hi')] })).rejects.toMatchObject({
      code: 'LLM_UNAVAILABLE',
    });
    expect(requests()).toHaveLength(1);
  });

  it('retries a 429 after the RetryInfo delay Gemini gives', async () => {
    const adapter = await adapterFor([{ fault: { status: 429, retryAfterMs: 300 } }, { text: 'ok' }]);
    const started = Date.now();
    const result = await adapter.generate({ messages: [user('Hi')] });
    expect(result.message.content).toBe('ok');
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(requests()).toHaveLength(2);
  });

  it('gives up after timeoutMs with LLM_TIMEOUT, for generate and stream', async () => {
    const adapter = await adapterFor(() => ({ text: 'slow', delayMs: 2_000 }), {
      timeoutMs: 100,
      maxRetries: 0,
    });
    await expect(adapter.generate({ messages: [user('Hi')] })).rejects.toMatchObject({ code: 'LLM_TIMEOUT' });
    const stream = adapter.stream({ messages: [user('Hi')] });
    const events = await collect(stream);
    expect(events.at(-2)).toMatchObject({ type: 'error', code: 'LLM_TIMEOUT', fatal: true });
    expect(events.at(-1)).toMatchObject({ type: 'finish', reason: 'error' });
    await expect(stream.result).rejects.toMatchObject({ code: 'LLM_TIMEOUT' });
  });

  it('ends a generate call the caller aborts with LLM_ABORTED, timeout or not', async () => {
    const controller = new AbortController();
    // Aborted once the request has reached the server, while the answer is still on its way.
    const turn = () => {
      controller.abort();
      return { text: 'slow', delayMs: 2_000 };
    };
    const adapter = await adapterFor(turn, { timeoutMs: 5_000 });
    await expect(
      adapter.generate({ messages: [user('Hi')], signal: controller.signal }),
    ).rejects.toMatchObject({
      code: 'LLM_ABORTED',
    });
    expect(requests()).toHaveLength(1);
  });

  it('reports bad input as a CairnError, in generate and as stream events', async () => {
    const adapter = await adapterFor([]);
    const orphan: ModelMessage[] = [user('Hi'), { role: 'tool', tool_call_id: 'nope', content: 'x' }];
    await expect(adapter.generate({ messages: orphan })).rejects.toMatchObject({ code: 'INVALID_MESSAGE' });
    const events = await collect(adapter.stream({ messages: orphan }));
    expect(events.map((e) => e.type)).toEqual(['error', 'finish']);
    expect(events[0]).toMatchObject({ code: 'INVALID_MESSAGE' });
    expect(requests()).toHaveLength(0);
  });

  it('is created without an API key; a call then fails with LLM_AUTH naming GEMINI_API_KEY, sending nothing', async () => {
    vi.stubEnv('GEMINI_API_KEY', '');
    vi.stubEnv('GOOGLE_API_KEY', '');
    try {
      server = await startMockProviderServer({ provider: 'gemini', turns: [{ text: 'Hi!' }] });
      const adapter = createGeminiAdapter({ model: 'gemini-test', baseURL: server.baseURL });
      const failure = {
        code: 'LLM_AUTH',
        retryable: false,
        message: expect.stringContaining('GEMINI_API_KEY'),
      };
      const ask = { messages: [user('Hello')] };
      await expect(adapter.generate(ask)).rejects.toMatchObject(failure);
      const events = await collect(adapter.stream(ask));
      expect(events.map((e) => e.type)).toEqual(['error', 'finish']);
      expect(events[0]).toMatchObject(failure);
      expect(requests()).toHaveLength(0);
      // Taken from GEMINI_API_KEY when none is passed, read by the call.
      vi.stubEnv('GEMINI_API_KEY', 'from-env');
      expect((await adapter.generate(ask)).message.content).toBe('Hi!');
      expect(() => createGeminiAdapter({ model: '', apiKey: 'k' })).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
