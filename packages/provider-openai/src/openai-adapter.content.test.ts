import { type AgentOutput, CairnError, createFilePart, createImagePart, type ModelStream } from '@cairn/core';
import { type MockProviderServer, type ScriptTurn, startMockProviderServer } from '@cairn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIAdapter } from './openai-adapter.js';
import type { OpenAIAdapterOptions } from './openai-adapter-options.js';
import { OPENAI_VISION_MEDIA_TYPES } from './openai-input-media-types.js';

// Images, PDFs, structured output and usage details through the real `openai` SDK to the mock
// server, which checks OpenAI's part and strict-schema rules.

let server: MockProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setUp(turns: ScriptTurn[], options: Partial<OpenAIAdapterOptions> = {}) {
  server = await startMockProviderServer({ provider: 'openai', turns });
  const adapter = createOpenAIAdapter({
    model: 'gpt-4o',
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

// A 1×1 PNG and a minimal PDF: real bytes, so core's checks pass.
const PNG = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==',
    'base64',
  ),
);
const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const image = createImagePart(PNG, { fileName: 'dot.png' });
const pdf = createFilePart(PDF, { fileName: 'report.pdf' });
const call = { id: 'call_1', type: 'function' as const, function: { name: 'screenshot', arguments: '{}' } };

describe('createOpenAIAdapter: content parts', () => {
  it('takes images and PDFs on vision models by default, text only elsewhere, or what it is told', () => {
    const capabilities = (model: string, extra: Partial<OpenAIAdapterOptions> = {}) =>
      createOpenAIAdapter({ model, apiKey: 'k', ...extra }).capabilities;
    expect(capabilities('gpt-4.1')).toMatchObject({
      inputMediaTypes: OPENAI_VISION_MEDIA_TYPES,
      structuredOutput: true,
    });
    expect(capabilities('qwen3:8b', { baseURL: 'http://localhost:11434/v1' }).inputMediaTypes).toEqual([]);
    expect(capabilities('llava', { inputMediaTypes: ['image/*'] }).inputMediaTypes).toEqual(['image/*']);
  });

  it('sends a user image and PDF and a tool result image in OpenAI wire shape, generating and streaming', async () => {
    const { server, adapter } = await setUp([{ text: 'A dot and a report.' }, { text: 'Same.' }]);
    const messages = [
      { role: 'user' as const, content: [{ type: 'text' as const, text: 'What are these?' }, image, pdf] },
      { role: 'assistant' as const, content: null, tool_calls: [call] },
      { role: 'tool' as const, tool_call_id: 'call_1', content: [image] },
    ];
    expect((await adapter.generate({ messages })).message.content).toBe('A dot and a report.');
    const streamed = adapter.stream({ messages });
    await drain(streamed);
    expect((await streamed.result).message.content).toBe('Same.');
    const imageUrl = {
      type: 'image_url',
      image_url: { url: `data:image/png;base64,${image.source.type === 'base64' ? image.source.data : ''}` },
    };
    const pdfData = `data:application/pdf;base64,${pdf.source.type === 'base64' ? pdf.source.data : ''}`;
    for (const request of server.requests) {
      expect((request.body as { messages: unknown }).messages).toEqual([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What are these?' },
            imageUrl,
            { type: 'file', file: { filename: 'report.pdf', file_data: pdfData } },
          ],
        },
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: 'call_1', content: '[image: dot.png]' },
        {
          role: 'user',
          content: [{ type: 'text', text: 'Images and files returned by tool call call_1:' }, imageUrl],
        },
      ]);
    }
  });

  it('refuses a part the model cannot take with UNSUPPORTED_CONTENT before sending anything', async () => {
    const { server, adapter } = await setUp([{ text: 'never' }], { model: 'gpt-3.5-turbo' });
    const request = { messages: [{ role: 'user' as const, content: [image] }] };
    const error = await adapter.generate(request).catch((caught: unknown) => caught);
    expect(CairnError.is(error, 'UNSUPPORTED_CONTENT')).toBe(true);
    expect((error as CairnError).details).toMatchObject({
      provider: 'openai',
      modelId: 'gpt-3.5-turbo',
      mediaType: 'image/png',
    });
    const events = await drain(adapter.stream(request));
    expect(events.at(-2)).toMatchObject({ type: 'error', code: 'UNSUPPORTED_CONTENT' });

    const vision = createOpenAIAdapter({ model: 'gpt-4o', apiKey: 'k', baseURL: server.baseURL });
    const csv = createFilePart(new TextEncoder().encode('a,b\n1,2\n'), { mediaType: 'text/csv' });
    await expect(vision.generate({ messages: [{ role: 'user', content: [csv] }] })).rejects.toMatchObject({
      code: 'UNSUPPORTED_CONTENT',
      message: expect.stringContaining('text/csv'),
    });
    expect(server.requests).toHaveLength(0);
  });
});

describe('createOpenAIAdapter: structured output', () => {
  const output = {
    type: 'json' as const,
    name: 'weather report',
    description: 'The weather',
    schema: {
      type: 'object',
      properties: { city: { type: 'string', minLength: 1 }, celsius: { type: 'number' } },
      required: ['city'],
    },
  };
  const answer = '{"city":"Paris","celsius":null}';

  it('asks for a strict json_schema and returns the JSON as the message text, generating and streaming', async () => {
    const { server, adapter } = await setUp([{ text: answer }, { text: answer, chunkSize: 5 }]);
    const messages = [{ role: 'user' as const, content: 'Weather in Paris?' }];
    expect((await adapter.generate({ messages, output })).message.content).toBe(answer);
    const stream = adapter.stream({ messages, output });
    const events = await drain(stream);
    expect(events.filter((event) => event.type === 'text_delta').length).toBeGreaterThan(1);
    expect((await stream.result).message.content).toBe(answer);
    for (const request of server.requests) {
      expect((request.body as { response_format: unknown }).response_format).toEqual({
        type: 'json_schema',
        json_schema: {
          name: 'weather_report',
          description: 'The weather',
          strict: true,
          schema: {
            type: 'object',
            properties: {
              city: { type: 'string', description: '(minLength: 1)' },
              celsius: { type: ['number', 'null'] },
            },
            required: ['city', 'celsius'],
            additionalProperties: false,
          },
        },
      });
    }
  });

  it('meets the 400 OpenAI returns when a schema breaks strict mode (sent as is through providerOptions)', async () => {
    const { adapter } = await setUp([{ text: answer }], { maxRetries: 0 });
    const raw = { type: 'json_schema', json_schema: { name: 'x', schema: output.schema, strict: true } };
    await expect(
      adapter.generate({
        messages: [{ role: 'user', content: 'hi' }],
        providerOptions: { openai: { response_format: raw } },
      }),
    ).rejects.toMatchObject({
      message: expect.stringContaining("'additionalProperties' is required to be supplied and to be false"),
    });
  });
});

describe('createOpenAIAdapter: usage details', () => {
  it('reports cached prompt tokens and reasoning tokens, generating and streaming', async () => {
    const usage = { inputTokens: 2000, outputTokens: 300, cacheReadTokens: 1536, reasoningTokens: 128 };
    const { adapter } = await setUp([
      { text: 'a', usage },
      { text: 'b', usage },
    ]);
    const messages = [{ role: 'user' as const, content: 'hi' }];
    const expected = { ...usage, totalTokens: 2300 };
    expect((await adapter.generate({ messages })).usage).toEqual(expected);
    const stream = adapter.stream({ messages });
    const events = await drain(stream);
    expect(events.filter((event) => event.type === 'usage').at(-1)).toMatchObject({ usage: expected });
    expect((await stream.result).usage).toEqual(expected);
  });
});
