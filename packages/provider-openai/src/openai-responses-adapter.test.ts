import type { ModelMessage } from '@cairn/core';
import { startMockProviderServer } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { createOpenAIResponsesAdapter } from './openai-responses-adapter.js';

const tools = [
  {
    name: 'get_weather',
    description: 'Weather',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
];

describe('createOpenAIResponsesAdapter against the enforcing Responses mock', () => {
  it('streams reasoning and parallel calls, then replays them in a body the mock accepts', async () => {
    const server = await startMockProviderServer({
      provider: 'openai-responses',
      turns: [
        {
          reasoning: 'Two cities, two calls.',
          toolCalls: [
            { name: 'get_weather', arguments: { city: 'Paris' } },
            { name: 'get_weather', arguments: { city: 'Oslo' } },
          ],
          chunkSize: 5,
        },
        { reasoning: 'Both known.', text: 'Paris 21 °C, Oslo failed.' },
        { text: 'Bye.' },
      ],
    });
    try {
      const model = createOpenAIResponsesAdapter({
        model: 'o4-mini',
        baseURL: server.baseURL,
        apiKey: 'sk-test',
      });
      const messages: ModelMessage[] = [{ role: 'user', content: 'Weather in Paris and Oslo?' }];
      const stream = model.stream({ messages, tools });
      const types = new Set<string>();
      for await (const event of stream) types.add(event.type);
      const first = await stream.result;
      expect([...types]).toEqual(expect.arrayContaining(['reasoning_delta', 'tool_input_delta', 'tool_use']));
      expect(first.finishReason).toBe('tool_calls');
      const [paris, oslo] = first.message.tool_calls ?? [];
      messages.push(
        JSON.parse(JSON.stringify(first.message)) as ModelMessage,
        { role: 'tool', tool_call_id: paris?.id ?? '', content: '21 °C' },
        { role: 'tool', tool_call_id: oslo?.id ?? '', content: 'service down', isError: true },
      );
      const second = await model.generate({ messages, tools });
      expect(second.message.content).toBe('Paris 21 °C, Oslo failed.');
      messages.push(second.message, { role: 'user', content: 'Thanks.' });
      await expect(model.generate({ messages, tools })).resolves.toMatchObject({
        message: { content: 'Bye.' },
      });

      // Every request passed the mock's rules (a refused one would have thrown); the last carries
      // both answers' reasoning, each before the item that followed it.
      const body = server.requests[2]?.body as { input: { type?: string; role?: string }[] } | undefined;
      const input = body?.input ?? [];
      expect(input.map((item) => item.type ?? item.role)).toEqual([
        'user',
        'reasoning',
        'function_call',
        'function_call',
        'function_call_output',
        'function_call_output',
        'reasoning',
        'message',
        'user',
      ]);
    } finally {
      await server.close();
    }
  });

  it('refuses an image for a text-only model before anything is sent', async () => {
    const server = await startMockProviderServer({ provider: 'openai-responses', turns: [] });
    try {
      const model = createOpenAIResponsesAdapter({
        model: 'gpt-3.5-turbo',
        baseURL: server.baseURL,
        apiKey: 'sk-test',
      });
      const image = {
        type: 'image' as const,
        mediaType: 'image/png',
        source: { type: 'base64' as const, data: 'iVBO' },
      };
      await expect(model.generate({ messages: [{ role: 'user', content: [image] }] })).rejects.toMatchObject({
        code: 'UNSUPPORTED_CONTENT',
      });
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });

  it('turns a mid-stream error event into a classified CairnError', async () => {
    const rawSse = [
      'event: response.created',
      'data: {"type":"response.created","sequence_number":0,"response":{"id":"resp_1","model":"gpt-5","status":"in_progress","output":[]}}',
      '',
      'event: error',
      'data: {"type":"error","sequence_number":1,"code":"server_error","message":"The server had an error.","param":null}',
      '',
      '',
    ].join('\n');
    const server = await startMockProviderServer({ provider: 'openai-responses', turns: [{ rawSse }] });
    try {
      const model = createOpenAIResponsesAdapter({
        model: 'gpt-5',
        baseURL: server.baseURL,
        apiKey: 'sk-test',
      });
      const stream = model.stream({ messages: [{ role: 'user', content: 'Hi' }] });
      const events: string[] = [];
      for await (const event of stream) events.push(event.type);
      await expect(stream.result).rejects.toMatchObject({ code: 'LLM_UNAVAILABLE', retryable: true });
      expect(events).toContain('error');
    } finally {
      await server.close();
    }
  });
});
