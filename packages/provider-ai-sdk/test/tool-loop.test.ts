import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import type { ModelMessage, ModelToolDefinition } from '@cairn/core';
import { chatToolLoop, createToolHost, defineTool } from '@cairn/loop';
import { startMockProviderServer } from '@cairn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAiSdkAdapter } from '../src/index.js';

const getWeather = defineTool({
  name: 'get_weather',
  description: 'The current temperature in a city',
  category: 'web',
  input: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, celsius: -3 }),
});

const WEATHER: ModelToolDefinition = {
  name: 'get_weather',
  description: 'The current temperature in a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const question = (): ModelMessage[] => [{ role: 'user', content: 'How cold is it in Oslo?' }];

describe('chatToolLoop through the AI SDK adapter', () => {
  it('runs a tool loop on @ai-sdk/anthropic with thinking on: the signed thinking goes back with the tool result (the mock refuses it otherwise)', async () => {
    const server = await startMockProviderServer({
      provider: 'anthropic',
      turns: [
        {
          reasoning: 'The user wants Oslo. I will call get_weather.',
          toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: { city: 'Oslo' } }],
        },
        { text: 'It is -3 °C in Oslo.' },
      ],
    });
    servers.push(server);
    const model = createAiSdkAdapter(
      createAnthropic({ baseURL: `${server.baseURL}/v1`, apiKey: 'sk-ant-test' })('claude-sonnet-4-5'),
      { providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } } } },
    );
    const messages = question();
    const result = await chatToolLoop({ model, tools: createToolHost([getWeather]), messages });

    expect(result.success).toBe(true);
    expect(result.text).toBe('It is -3 °C in Oslo.');
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    const [, first] = messages;
    expect(first?.role === 'assistant' ? first.reasoning?.[0] : undefined).toMatchObject({
      text: 'The user wants Oslo. I will call get_weather.',
      providerMetadata: { 'anthropic.messages': { anthropic: { signature: expect.any(String) } } },
    });
    const replayed = (
      server.requests[1]?.body as { messages: Array<{ content: Array<{ type: string }> }> } | undefined
    )?.messages[1]?.content;
    expect(replayed?.map((block) => block.type)).toEqual(['thinking', 'tool_use']);
  });

  it('the same history without the reasoning is refused by the mock: the replay is what makes the loop pass', async () => {
    const server = await startMockProviderServer({
      provider: 'anthropic',
      turns: [
        {
          reasoning: 'Call the tool.',
          toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: { city: 'Oslo' } }],
        },
        { text: 'Never sent.' },
      ],
    });
    servers.push(server);
    const model = createAiSdkAdapter(
      createAnthropic({ baseURL: `${server.baseURL}/v1`, apiKey: 'sk-ant-test' })('claude-sonnet-4-5'),
      {
        providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } } },
        maxRetries: 0,
      },
    );
    const messages = question();
    const first = await model.generate({ messages, tools: [WEATHER] });
    const { reasoning: _dropped, ...withoutReasoning } = first.message;
    messages.push(withoutReasoning, { role: 'tool', tool_call_id: 'toolu_1', content: '{"celsius":-3}' });
    await expect(model.generate({ messages, tools: [WEATHER] })).rejects.toMatchObject({
      code: 'LLM_BAD_REQUEST',
    });
  });

  it("runs a tool loop on @ai-sdk/google with a Gemini 3 model: each call's thought signature goes back with it", async () => {
    const server = await startMockProviderServer({
      provider: 'gemini',
      turns: [
        { toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] },
        { text: 'It is -3 °C in Oslo.' },
      ],
    });
    servers.push(server);
    const model = createAiSdkAdapter(
      createGoogleGenerativeAI({ baseURL: `${server.baseURL}/v1beta`, apiKey: 'gemini-test' })(
        'gemini-3-pro-preview',
      ),
    );
    const messages = question();
    const result = await chatToolLoop({ model, tools: createToolHost([getWeather]), messages });

    expect(result.success).toBe(true);
    expect(result.text).toBe('It is -3 °C in Oslo.');
    const call = (
      server.requests[1]?.body as { contents: Array<{ parts: Array<Record<string, unknown>> }> } | undefined
    )?.contents[1]?.parts[0];
    // The signature the mock issued, kept on the message under the adapter's namespace by call id,
    // goes back as it was (not a placeholder the AI SDK would put on a call that lost it).
    const [, first] = messages;
    const callId = first?.role === 'assistant' ? first.tool_calls?.[0]?.id : undefined;
    const issued = (
      first?.providerMetadata?.[model.provider]?.[callId ?? ''] as { google?: { thoughtSignature?: string } }
    )?.google?.thoughtSignature;
    expect(issued).toEqual(expect.any(String));
    expect(['skip_thought_signature_validator', 'context_engineering_is_the_way_to_go']).not.toContain(
      issued,
    );
    expect(call).toMatchObject({ functionCall: { name: 'get_weather' }, thoughtSignature: issued });
  });
});
