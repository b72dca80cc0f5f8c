import {
  type AgentOutput,
  CairnError,
  createFilePart,
  createImagePart,
  type ModelRequest,
} from '@cairn/core';
import {
  createAnthropicMockProtocol,
  type MockProviderServer,
  type ScriptTurn,
  startMockProviderServer,
} from '@cairn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicAdapter } from './anthropic-adapter.js';
import type { AnthropicAdapterOptions } from './anthropic-adapter-options.js';

// Images, documents, structured output and prompt caching through the real SDK client against the
// loopback Messages API, whose request rules check the wire shape.

let server: MockProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(
  turns: ScriptTurn[],
  promptCache = false,
  options: Partial<AnthropicAdapterOptions> = {},
) {
  server = await startMockProviderServer({
    provider: promptCache ? createAnthropicMockProtocol({ promptCache: true }) : 'anthropic',
    turns,
  });
  const adapter = createAnthropicAdapter({
    model: 'claude-test',
    baseURL: server.baseURL,
    apiKey: 'sk-test',
    ...options,
  });
  return { adapter, server };
}

// A 2×3 PNG (signature and IHDR, enough for the size to be read) and a tiny PDF.
function pngBytes(): Uint8Array {
  const bytes = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
  bytes.writeUInt32BE(13, 8);
  bytes.write('IHDR', 12, 'latin1');
  bytes.writeUInt32BE(2, 16);
  bytes.writeUInt32BE(3, 20);
  return new Uint8Array(bytes);
}
const pdfBytes = new TextEncoder().encode('%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n');

describe('createAnthropicAdapter with images and documents', () => {
  it('sends a user image and PDF and a tool-result image as blocks the API takes', async () => {
    const { adapter, server } = await setup([{ text: 'A chart and a report.' }]);
    const image = createImagePart(pngBytes(), { fileName: 'chart.png' });
    const pdf = createFilePart(pdfBytes, { mediaType: 'application/pdf', fileName: 'report.pdf' });
    const result = await adapter.generate({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'What are these?' }, image, pdf] },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'toolu_1', type: 'function', function: { name: 'screenshot', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: [{ type: 'text', text: 'the screen:' }, image] },
      ],
    });
    expect(result.message.content).toBe('A chart and a report.');
    const body = server.requests[0]?.body as { messages: { content: unknown[] }[] };
    const imageSource = {
      type: 'base64',
      media_type: 'image/png',
      data: Buffer.from(pngBytes()).toString('base64'),
    };
    expect(body.messages[0]?.content).toEqual([
      { type: 'text', text: 'What are these?' },
      { type: 'image', source: imageSource },
      {
        type: 'document',
        source: {
          type: 'base64',
          media_type: 'application/pdf',
          data: Buffer.from(pdfBytes).toString('base64'),
        },
        title: 'report.pdf',
        cache_control: { type: 'ephemeral' },
      },
    ]);
    expect(body.messages[2]?.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_1',
        content: [
          { type: 'text', text: 'the screen:' },
          { type: 'image', source: imageSource },
        ],
        cache_control: { type: 'ephemeral' },
      },
    ]);
  });

  it('refuses a part the model cannot take with UNSUPPORTED_CONTENT, before any request', async () => {
    const { adapter, server } = await setup([{ text: 'never' }]);
    const request: ModelRequest = {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Listen:' },
            { type: 'file', mediaType: 'audio/mpeg', source: { type: 'base64', data: 'SUQzBA==' } },
          ],
        },
      ],
    };
    await expect(adapter.generate(request)).rejects.toMatchObject({ code: 'UNSUPPORTED_CONTENT' });
    const stream = adapter.stream(request);
    for await (const _event of stream) {
      // drained: the stream ends with error + finish
    }
    const error = await stream.result.catch((caught: unknown) => caught);
    expect(CairnError.is(error) && error.code).toBe('UNSUPPORTED_CONTENT');
    expect(server.requests).toHaveLength(0);
    expect(adapter.capabilities.inputMediaTypes).toEqual([
      'image/jpeg',
      'image/png',
      'image/gif',
      'image/webp',
      'application/pdf',
      'text/plain',
    ]);
  });
});

describe('createAnthropicAdapter structured output', () => {
  const output = {
    type: 'json' as const,
    name: 'city',
    schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  };
  const json = '{"name":"Paris"}';

  it('sends output_config.format and returns the JSON as text, streamed as text deltas', async () => {
    const { adapter, server } = await setup([{ text: json }, { text: json, chunkSize: 4 }]);
    const request: ModelRequest = { messages: [{ role: 'user', content: 'Capital of France?' }], output };
    const result = await adapter.generate(request);
    expect(result.message).toMatchObject({ role: 'assistant', content: json });
    expect(result.message.tool_calls ?? []).toEqual([]);
    expect(result.finishReason).toBe('stop');

    const events: AgentOutput[] = [];
    const stream = adapter.stream(request);
    for await (const event of stream) events.push(event);
    const deltas = events.flatMap((event) => (event.type === 'text_delta' ? [event.delta] : []));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(json);
    expect((await stream.result).message.content).toBe(json);

    expect(server.requests[0]?.body).toMatchObject({
      output_config: {
        format: {
          type: 'json_schema',
          schema: { ...output.schema, additionalProperties: false },
        },
      },
    });
    expect(adapter.capabilities.structuredOutput).toBe(true);
  });
});

describe('createAnthropicAdapter structured output as a forced tool', () => {
  const output = {
    type: 'json' as const,
    name: 'city',
    schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  };
  const json = '{"name":"Paris"}';
  const request: ModelRequest = { messages: [{ role: 'user', content: 'Capital of France?' }], output };

  it("forces the output tool and returns its input as the answer's text, streamed as text deltas", async () => {
    const { adapter, server } = await setup([{ text: json }, { text: json, chunkSize: 4 }], false, {
      structuredOutput: 'tool',
    });
    const result = await adapter.generate(request);
    expect(result.message.content).toBe(json);
    expect(result.message.tool_calls ?? []).toEqual([]);
    expect(result).toMatchObject({ finishReason: 'stop', rawFinishReason: 'tool_use' });
    const events: AgentOutput[] = [];
    const stream = adapter.stream(request);
    for await (const event of stream) events.push(event);
    const deltas = events.flatMap((event) => (event.type === 'text_delta' ? [event.delta] : []));
    expect(deltas.length).toBeGreaterThan(1);
    expect(JSON.parse(deltas.join(''))).toEqual({ name: 'Paris' });
    expect(events.some((event) => event.type === 'tool_use' || event.type === 'tool_input_delta')).toBe(
      false,
    );
    expect((await stream.result).finishReason).toBe('stop');
    const body = server.requests[0]?.body as Record<string, unknown>;
    expect(body.output_config).toBeUndefined();
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'city' });
    expect(body.tools).toEqual([
      {
        name: 'city',
        description: 'Give your final answer as this tool’s input.',
        input_schema: output.schema,
        cache_control: { type: 'ephemeral' },
      },
    ]);
  });

  it("lets the model call the request's tools first, and is chosen per request", async () => {
    const { adapter, server } = await setup([
      { toolCalls: [{ name: 'lookup', arguments: { q: 'France' } }] },
    ]);
    const result = await adapter.generate({
      ...request,
      tools: [{ name: 'lookup', description: 'Looks up', inputSchema: { type: 'object' } }],
      providerOptions: { anthropic: { structuredOutput: 'tool' } },
    });
    expect(result.finishReason).toBe('tool_calls');
    expect(result.message.tool_calls?.[0]?.function.name).toBe('lookup');
    expect(server.requests[0]?.body).toMatchObject({ tool_choice: { type: 'any' } });
  });
});

describe('createAnthropicAdapter prompt caching', () => {
  it("reports the mock's cache reads and writes, counted in inputTokens", async () => {
    const longSystem = `You are a careful assistant. ${'Follow the house rules. '.repeat(250)}`;
    const { adapter } = await setup([{ text: 'one' }, { text: 'two' }], true);
    const messages: ModelRequest['messages'] = [
      { role: 'system', content: longSystem },
      { role: 'user', content: 'First question?' },
    ];
    const first = await adapter.generate({ messages });
    expect(first.usage.cacheReadTokens).toBe(0);
    expect(first.usage.cacheWriteTokens).toBeGreaterThan(1024);
    messages.push(first.message, { role: 'user', content: 'Second question?' });
    const second = await adapter.generate({ messages });
    expect(second.usage.cacheReadTokens).toBe(first.usage.cacheWriteTokens);
    expect(second.usage.inputTokens).toBe(
      (second.usage.cacheReadTokens ?? 0) + (second.usage.cacheWriteTokens ?? 0),
    );
  });
});
