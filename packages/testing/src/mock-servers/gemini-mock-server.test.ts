import { readFileSync } from 'node:fs';
import { ApiError, type GenerateContentConfig, GoogleGenAI, type Part, type Tool } from '@google/genai';
import { describe, expect, it } from 'vitest';
import type { ScriptTurn } from '../script-turn.js';
import { mockServerPerTest } from './mock-server-per-test.js';
import type { MockTurns } from './start-mock-provider-server.js';

const mock = mockServerPerTest();

// The SDK's stream continuation would silently re-request a cut stream; the mock's faults are the
// point here. (The option is in the SDK's code but not yet in its types.)
const config = { automaticContinuation: false } as GenerateContentConfig;

/** `@google/genai`'s `generateContent` and `generateContentStream` against a mock with `turns`. */
async function modelFor(turns: MockTurns) {
  const server = await mock.start({ provider: 'gemini', turns });
  const { models } = new GoogleGenAI({ apiKey: 'gemini-mock-key', httpOptions: { baseUrl: server.baseURL } });
  return {
    generateContent: (contents: string | { role: string; parts: Part[] }[], tools?: Tool[]) =>
      models.generateContent({
        model: 'gemini-mock',
        contents,
        config: { ...config, ...(tools ? { tools } : {}) },
      }),
    generateContentStream: (contents: string) =>
      models.generateContentStream({ model: 'gemini-mock', contents, config }),
  };
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('expected a failure'),
    (error: unknown) => error as ApiError,
  );

/** `ApiError`'s message is Google's error JSON. */
const errorBodyOf = (error: ApiError) => JSON.parse(error.message) as { error: Record<string, unknown> };

const VALID_BODY = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });

const fixture = (turn: number) =>
  readFileSync(new URL(`__fixtures__/gemini-api/sse-turn${turn}.txt`, import.meta.url), 'utf8');

const thoughtAndParallelCalls: ScriptTurn = {
  reasoning: 'Two lookups are needed.',
  text: 'Checking both.',
  toolCalls: [
    { name: 'get_weather', arguments: { city: 'Paris' } },
    { name: 'get_time', arguments: { zone: 'Europe/Paris' } },
  ],
  usage: { inputTokens: 100, outputTokens: 40, reasoningTokens: 15, cacheReadTokens: 60 },
  chunkSize: 5,
};

describe('Gemini mock server through the official SDK', () => {
  it('answers generateContent with thought, text, function calls (no ids) and usageMetadata', async () => {
    const model = await modelFor([thoughtAndParallelCalls]);
    const response = await model.generateContent('hi');
    const candidate = response.candidates?.[0];
    expect(candidate?.finishReason).toBe('STOP');
    expect(candidate?.content?.role).toBe('model');
    expect(candidate?.content?.parts).toEqual([
      { text: 'Two lookups are needed.', thought: true, thoughtSignature: expect.any(String) },
      { text: 'Checking both.' },
      {
        functionCall: { name: 'get_weather', args: { city: 'Paris' } },
        thoughtSignature: expect.any(String),
      },
      { functionCall: { name: 'get_time', args: { zone: 'Europe/Paris' } } },
    ]);
    expect(response.functionCalls).toHaveLength(2);
    // candidatesTokenCount excludes the thoughts; promptTokenCount includes cached tokens.
    expect(response.usageMetadata).toMatchObject({
      promptTokenCount: 100,
      candidatesTokenCount: 25,
      thoughtsTokenCount: 15,
      cachedContentTokenCount: 60,
      totalTokenCount: 140,
    });
    expect(mock.server?.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1beta/models/gemini-mock:generateContent',
      stream: false,
      headers: expect.objectContaining({ 'x-goog-api-key': 'gemini-mock-key' }),
      body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
    });
  });

  it('streams text over chunks and the function calls whole in the last chunk, with CRLF SSE', async () => {
    const model = await modelFor([thoughtAndParallelCalls, { text: 'raw' }]);
    const stream = await model.generateContentStream('hi');
    const chunks: Part[][] = [];
    let last: Awaited<ReturnType<typeof model.generateContent>> | undefined;
    for await (const chunk of stream) {
      chunks.push(chunk.candidates?.[0]?.content?.parts ?? []);
      last = chunk;
    }
    expect(chunks.slice(0, 5)).toEqual([
      [{ text: 'Two l', thought: true }],
      [{ text: 'ookup', thought: true }],
      [{ text: 's are', thought: true }],
      [{ text: ' need', thought: true }],
      [{ text: 'ed.', thought: true, thoughtSignature: expect.any(String) }],
    ]);
    expect(chunks.at(-1)?.map((part) => part.functionCall?.name)).toEqual(['get_weather', 'get_time']);
    expect(last?.candidates?.[0]?.finishReason).toBe('STOP');
    expect(last?.usageMetadata?.candidatesTokenCount).toBe(25);
    expect(mock.server?.requests[0]).toMatchObject({
      path: '/v1beta/models/gemini-mock:streamGenerateContent',
      url: '/v1beta/models/gemini-mock:streamGenerateContent?alt=sse',
      stream: true,
    });
    const raw = await fetch(`${mock.server?.baseURL}/v1beta/models/m:streamGenerateContent?alt=sse`, {
      method: 'POST',
      body: VALID_BODY,
    });
    expect(await raw.text()).toMatch(/^data: \{.*\}\r\n\r\n/);
  });

  it('answers streamGenerateContent without alt=sse as one JSON array of chunks', async () => {
    const server = await mock.start({ provider: 'gemini', turns: [{ text: 'abcdefghij' }] });
    const response = await fetch(`${server.baseURL}/v1beta/models/m:streamGenerateContent`, {
      method: 'POST',
      body: VALID_BODY,
    });
    const chunks = (await response.json()) as unknown[];
    expect(chunks).toHaveLength(2);
  });

  it('maps faults to ApiError with the status and RetryInfo details', async () => {
    const model = await modelFor([
      { fault: { status: 401 } },
      { fault: { status: 429, retryAfterSeconds: 2 } },
      { fault: { status: 500 } },
      { fault: { status: 400, contextOverflow: true } },
    ]);
    const call = () => failureOf(model.generateContent('hi'));
    const auth = await call();
    expect(auth).toBeInstanceOf(ApiError);
    expect(auth.status).toBe(401);
    const limited = await call();
    expect(limited.status).toBe(429);
    expect(errorBodyOf(limited).error.details).toEqual([
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '2s' },
    ]);
    expect((await call()).status).toBe(500);
    const overflow = await call();
    expect(overflow.status).toBe(400);
    expect(overflow.message).toContain('exceeds the maximum number of tokens');
  });

  it('sends retry-after headers and the {error:{code,message,status}} body', async () => {
    const server = await mock.start({
      provider: 'gemini',
      turns: [{ fault: { status: 429, retryAfterMs: 250 } }],
    });
    const response = await fetch(`${server.baseURL}/v1beta/models/m:generateContent`, {
      method: 'POST',
      body: VALID_BODY,
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after-ms')).toBe('250');
    expect(await response.json()).toEqual({
      error: {
        code: 429,
        message: 'Resource has been exhausted (e.g. check quota).',
        status: 'RESOURCE_EXHAUSTED',
        details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '0.25s' }],
      },
    });
  });

  it('fails a cut stream and a malformed chunk', async () => {
    const model = await modelFor([
      { text: 'abcdefghij', chunkSize: 1, cutAfterEvents: 4 },
      { text: 'abcdefghij', malformedAfterEvents: 1 },
    ]);
    const drain = async () => {
      const stream = await model.generateContentStream('hi');
      for await (const _ of stream) {
        // drain
      }
    };
    await expect(drain()).rejects.toThrow();
    await expect(drain()).rejects.toThrow(SyntaxError);
  });

  it("rejects JSON Schema keywords outside Gemini's Schema subset, like the real API", async () => {
    const model = await modelFor([{ text: 'unused' }]);
    // Cast: the SDK's Schema type forbids the very field under test. (`@google/genai` drops
    // `additionalProperties` itself, but passes `const` on.)
    const tools = [
      {
        functionDeclarations: [
          {
            name: 'get_weather',
            parameters: {
              type: 'object',
              properties: { city: { type: 'string' }, unit: { type: 'string', const: 'celsius' } },
            },
          },
        ],
      },
    ];
    const failure = await failureOf(
      model.generateContent([{ role: 'user', parts: [{ text: 'hi' }] }], tools as unknown as Tool[]),
    );
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure.status).toBe(400);
    expect(errorBodyOf(failure).error.message).toContain('Unknown name "const"');
    expect(mock.server?.requests).toHaveLength(1);
  });

  it('refuses, on Gemini 3, a replayed function call without its thought signature, as the API does', async () => {
    const server = await mock.start({
      provider: 'gemini',
      turns: [{ text: 'It is sunny.' }, { text: 'Again.' }],
    });
    const { models } = new GoogleGenAI({
      apiKey: 'gemini-mock-key',
      httpOptions: { baseUrl: server.baseURL },
    });
    const contents = (thoughtSignature?: string) => [
      { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
      {
        role: 'model',
        parts: [
          {
            functionCall: { name: 'get_weather', args: { city: 'Paris' } },
            ...(thoughtSignature ? { thoughtSignature } : {}),
          },
        ],
      },
      {
        role: 'user',
        parts: [{ functionResponse: { name: 'get_weather', response: { content: 'sunny' } } }],
      },
    ];
    const failure = await failureOf(
      models.generateContent({ model: 'gemini-3-pro-preview', contents: contents(), config }),
    );
    expect(failure.status).toBe(400);
    expect(errorBodyOf(failure).error).toMatchObject({
      code: 400,
      status: 'INVALID_ARGUMENT',
      message: expect.stringMatching(
        /^Function call is missing a thought_signature in functionCall parts\..*`default_api:get_weather`, position 2\./,
      ),
    });
    // Signed, or on an earlier model, the same history is answered.
    const signed = await models.generateContent({
      model: 'gemini-3-pro-preview',
      contents: contents('c2lnbmVk'),
      config,
    });
    expect(signed.text).toBe('It is sunny.');
    const older = await models.generateContent({ model: 'gemini-2.5-flash', contents: contents(), config });
    expect(older.text).toBe('Again.');
  });

  it.each([1, 2, 3, 4, 5])('replays the captured fixture turn %i', async (turn) => {
    const rawSse = fixture(turn);
    const model = await modelFor([{ rawSse }]);
    const stream = await model.generateContentStream('hi');
    const parts: Part[] = [];
    let finishReason: string | undefined;
    for await (const chunk of stream) {
      parts.push(...(chunk.candidates?.[0]?.content?.parts ?? []));
      finishReason = chunk.candidates?.[0]?.finishReason ?? finishReason;
    }
    expect(finishReason).toBe('STOP');
    const expectedCalls = [...rawSse.matchAll(/"functionCall":\{"name":"(\w+)"/g)].map((match) => match[1]);
    expect(parts.filter((part) => part.functionCall).map((part) => part.functionCall?.name)).toEqual(
      expectedCalls,
    );
    for (const part of parts.filter((part) => part.functionCall)) {
      expect(part).toHaveProperty('thoughtSignature');
    }
    if (turn === 1) expect(parts[0]).toMatchObject({ thought: true });
  });
});
