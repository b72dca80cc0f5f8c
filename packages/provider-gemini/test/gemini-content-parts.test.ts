import {
  type AgentOutput,
  bytesToBase64,
  createFilePart,
  createImagePart,
  type ModelAdapter,
  type ModelMessage,
} from '@cairn/core';
import { type MockProviderServer, type MockTurns, startMockProviderServer } from '@cairn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createGeminiAdapter } from '../src/index.js';

// Images, files and structured output through the real @google/genai SDK against the
// Gemini mock server, which refuses what the API refuses (see its request rules).

let server: MockProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function adapterFor(turns: MockTurns, model = 'gemini-2.5-flash'): Promise<ModelAdapter> {
  server = await startMockProviderServer({ provider: 'gemini', turns });
  return createGeminiAdapter({ model, baseURL: server.baseURL, apiKey: 'test-key', maxRetries: 0 });
}

type SentBody = { contents: Array<{ role: string; parts: unknown[] }> };
const sentContents = (index: number) =>
  (server?.requests[index]?.body as SentBody | undefined)?.contents ?? [];

async function collect(stream: AsyncIterable<AgentOutput>): Promise<AgentOutput[]> {
  const events: AgentOutput[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 3, 0, 0, 0, 2,
]);
const PDF = new TextEncoder().encode('%PDF-1.7\n%%EOF\n');
const GIF = Uint8Array.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0]);

const screenshotConversation: ModelMessage[] = [
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Does the chart match the report?' },
      createImagePart(PNG, { fileName: 'chart.png' }),
      createFilePart(PDF, { fileName: 'report.pdf' }),
    ],
  },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'screenshot', arguments: '{}' } }],
  },
  { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'the page' }, createImagePart(PNG)] },
];

const png = { mimeType: 'image/png', data: bytesToBase64(PNG) };

// Gemini 3 refuses a replayed function call without its thought signature (the mock enforces it),
// so the Gemini 3 conversation carries the one Gemini gave the call.
const SIGNATURE = 'c2lnbmVkLWJ5LWdlbWluaS0z';
const signedScreenshotConversation: ModelMessage[] = screenshotConversation.map((message) =>
  message.role === 'assistant'
    ? { ...message, providerMetadata: { gemini: { c1: { thoughtSignature: SIGNATURE } } } }
    : message,
);

describe('Gemini adapter: content parts', () => {
  it('sends an image and a PDF inline, and a tool’s image beside its function response (Gemini 2.5)', async () => {
    const adapter = await adapterFor([{ text: 'They match.' }]);
    const result = await adapter.generate({ messages: screenshotConversation });
    expect(result.message.content).toBe('They match.');
    expect(adapter.capabilities).toMatchObject({
      inputMediaTypes: expect.arrayContaining(['image/png', 'application/pdf', 'text/plain']),
      structuredOutput: true,
    });
    expect(sentContents(0)).toEqual([
      {
        role: 'user',
        parts: [
          { text: 'Does the chart match the report?' },
          { inlineData: png },
          { inlineData: { mimeType: 'application/pdf', data: bytesToBase64(PDF) } },
        ],
      },
      { role: 'model', parts: [{ functionCall: { name: 'screenshot', args: {} } }] },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'screenshot', response: { content: 'the page' } } },
          { inlineData: png },
        ],
      },
    ]);
  });

  it('nests a tool’s image in its function response on Gemini 3, streaming too', async () => {
    const adapter = await adapterFor([{ text: 'Yes.' }], 'gemini-3-pro-preview');
    const stream = adapter.stream({ messages: signedScreenshotConversation });
    await collect(stream);
    expect((await stream.result).message.content).toBe('Yes.');
    expect(sentContents(0)[1]).toEqual({
      role: 'model',
      parts: [{ functionCall: { name: 'screenshot', args: {} }, thoughtSignature: SIGNATURE }],
    });
    expect(sentContents(0).at(-1)).toEqual({
      role: 'user',
      parts: [
        {
          functionResponse: {
            name: 'screenshot',
            response: { content: 'the page' },
            parts: [{ inlineData: png }],
          },
        },
      ],
    });
  });

  it('sends a URL as fileData for Gemini to fetch', async () => {
    const adapter = await adapterFor([{ text: 'A lecture.' }]);
    const url = 'https://www.youtube.com/watch?v=9hE5-98ZeCg';
    await adapter.generate({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'file', mediaType: 'video/mp4', source: { type: 'url', url } },
            { type: 'text', text: 'What is this?' },
          ],
        },
      ],
    });
    expect(sentContents(0)[0]?.parts).toEqual([
      { fileData: { mimeType: 'video/mp4', fileUri: url } },
      { text: 'What is this?' },
    ]);
  });

  it('refuses a GIF with UNSUPPORTED_CONTENT before sending, in generate and as stream events', async () => {
    const adapter = await adapterFor([{ text: 'never' }]);
    const messages: ModelMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'Funny?' }, createImagePart(GIF)] },
    ];
    await expect(adapter.generate({ messages })).rejects.toMatchObject({
      code: 'UNSUPPORTED_CONTENT',
      message: expect.stringContaining('cannot take image/gif'),
    });
    const events = await collect(adapter.stream({ messages }));
    expect(events.map((event) => event.type)).toEqual(['error', 'finish']);
    expect(events[0]).toMatchObject({ code: 'UNSUPPORTED_CONTENT' });
    expect(server?.requests).toHaveLength(0);
  });
});

describe('Gemini adapter: structured output and usage', () => {
  const output = {
    type: 'json' as const,
    schema: {
      type: 'object',
      properties: { city: { type: 'string' }, population: { type: 'integer' } },
      required: ['city', 'population'],
      additionalProperties: false,
    },
  };
  const answer = '{"city":"Paris","population":2102650}';

  it('asks for JSON with the cleaned schema and returns the JSON as text, whole and streamed', async () => {
    const usage = { inputTokens: 900, outputTokens: 40, reasoningTokens: 12, cacheReadTokens: 800 };
    const adapter = await adapterFor([
      { text: answer, usage },
      { text: answer, usage, chunkSize: 7 },
    ]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'The largest city of France?' }];
    const whole = await adapter.generate({ messages, output });
    expect(whole.message.content).toBe(answer);
    expect(whole.usage).toEqual({
      inputTokens: 900,
      outputTokens: 40,
      totalTokens: 940,
      reasoningTokens: 12,
      cacheReadTokens: 800,
    });
    const stream = adapter.stream({ messages, output });
    const deltas = (await collect(stream)).flatMap((event) =>
      event.type === 'text_delta' ? [event.delta] : [],
    );
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(answer);
    expect((await stream.result).usage).toMatchObject({ cacheReadTokens: 800, reasoningTokens: 12 });
    for (const request of server?.requests ?? []) {
      expect(request.body).toHaveProperty('generationConfig', {
        responseMimeType: 'application/json',
        // The SDK writes schema types as the API's Type enum.
        responseSchema: {
          type: 'OBJECT',
          properties: { city: { type: 'STRING' }, population: { type: 'INTEGER' } },
          propertyOrdering: ['city', 'population'],
          required: ['city', 'population'],
        },
      });
    }
  });
});
