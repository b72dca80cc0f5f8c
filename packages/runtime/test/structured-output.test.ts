import type { AgentOutput, ModelAdapter } from '@cairn/core';
import { createAnthropicAdapter } from '@cairn/provider-anthropic';
import { createGeminiAdapter } from '@cairn/provider-gemini';
import { createOpenAIAdapter } from '@cairn/provider-openai';
import { createMemoryConversationStore } from '@cairn/storage';
import {
  type MockProvider,
  type MockProviderServer,
  ScriptedModel,
  type ScriptTurn,
  startMockProviderServer,
} from '@cairn/testing';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { createAgentRuntime, type RuntimeEvent } from '../src/index.js';
import { weatherTool } from './weather-tool.js';

const Weather = z.object({ city: z.string(), celsius: z.number() });
const OSLO = { city: 'Oslo', celsius: -3 };

function setUp(turns: ScriptTurn[], capabilities = { structuredOutput: true, streaming: false }) {
  const store = createMemoryConversationStore();
  const model = new ScriptedModel({ turns, capabilities });
  const runtime = createAgentRuntime({
    store,
    model,
    tools: [weatherTool],
    settings: { compression: false },
  });
  return { store, model, runtime };
}

describe('runtime chat with output', () => {
  it('returns the typed object after the tools it called; the answer is stored like any answer', async () => {
    const { store, model, runtime } = setUp([
      { toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Oslo' } }] },
      { text: JSON.stringify(OSLO) },
    ]);
    const result = await runtime.chat({ userInput: 'Weather in Oslo?', output: Weather });
    expectTypeOf(result.object).toEqualTypeOf<{ city: string; celsius: number } | undefined>();
    expect(result).toMatchObject({ success: true, turns: 2, object: OSLO, text: JSON.stringify(OSLO) });
    expect(model.requests.map((request) => request.output?.type)).toEqual(['json', 'json']);
    const log = await store.load(result.conversationId);
    expect(log.map((message) => [message.role, message.content ?? null])).toEqual([
      ['user', 'Weather in Oslo?'],
      ['assistant', null],
      ['tool', 'Oslo: -3 °C'],
      ['assistant', JSON.stringify(OSLO)],
    ]);
    // Without output, there is no object.
    const plain = await createAgentRuntime({
      store,
      model: new ScriptedModel({ turns: [{ text: 'Cold.' }] }),
      settings: { compression: false },
    }).chat({ conversationId: result.conversationId, userInput: 'And?' });
    expectTypeOf(plain.object).toEqualTypeOf<undefined>();
    expect(plain).not.toHaveProperty('object');
  });

  it('stores the feedback on an invalid answer, and the model answers again', async () => {
    const { store, model, runtime } = setUp([{ text: '{"city": "Oslo"}' }, { text: JSON.stringify(OSLO) }]);
    const result = await runtime.chat({ userInput: 'Weather in Oslo?', output: Weather });
    expect(result).toMatchObject({ success: true, turns: 2, object: OSLO });
    const log = await store.load(result.conversationId);
    expect(log.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(log[2]?.content).toMatch(/^Your answer could not be used[\s\S]*- celsius: /);
    expect(model.requests[1]?.messages.at(-1)?.content).toBe(log[2]?.content);
  });

  it('fails with OUTPUT_INVALID, stored as the error; the next turn goes on from the history', async () => {
    const { store, model, runtime } = setUp([
      { text: 'It is cold.' },
      { text: 'Very cold.' },
      { text: 'Sorry: -3 °C.' },
    ]);
    const failed = await runtime.chat({ userInput: 'Weather in Oslo?', output: Weather });
    expect(failed).toMatchObject({ success: false, text: 'Very cold.' });
    expect(failed.object).toBeUndefined();
    expect(failed.error?.code).toBe('OUTPUT_INVALID');
    expect(failed.error?.details).toMatchObject({ text: 'Very cold.', attempts: 2 });
    const log = await store.load(failed.conversationId);
    expect(log.at(-1)).toMatchObject({
      partType: 'error',
      errorCode: 'OUTPUT_INVALID',
      includeInContext: false,
    });

    const next = await runtime.chat({ conversationId: failed.conversationId, userInput: 'So?' });
    expect(next).toMatchObject({ success: true, text: 'Sorry: -3 °C.' });
    // The error note is not sent after the answer it follows: the roles still alternate.
    expect(model.requests[2]?.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
  });

  it('streams partial objects to onEvent', async () => {
    const { runtime } = setUp([{ text: JSON.stringify({ city: 'Oslo', celsius: -3.5 }), chunkSize: 4 }], {
      structuredOutput: true,
      streaming: true,
    });
    const events: (AgentOutput | RuntimeEvent)[] = [];
    const result = await runtime.chat({
      userInput: 'Weather in Oslo?',
      output: Weather,
      onEvent: (event) => events.push(event),
    });
    expect(result.object).toEqual({ city: 'Oslo', celsius: -3.5 });
    const partials = events.flatMap((event) => (event.type === 'partial_object' ? [event.object] : []));
    expect(partials).toEqual([{}, { city: 'Osl' }, { city: 'Oslo' }, { city: 'Oslo', celsius: -3.5 }]);
  });

  it('asks a model without native structured output through the system prompt', async () => {
    const { model, runtime } = setUp([{ text: JSON.stringify(OSLO) }], {
      structuredOutput: false,
      streaming: false,
    });
    const result = await runtime.chat({ userInput: 'Weather in Oslo?', output: Weather });
    expect(result.object).toEqual(OSLO);
    expect(model.requests[0]?.output).toBeUndefined();
    expect(model.requests[0]?.messages[0]?.content).toContain('answer with one JSON value that matches');
  });
});

// The native path through each real adapter and its provider's wire protocol, streaming: every
// adapter takes `ModelRequest.output` (OpenAI `json_schema`, Anthropic `output_config`, Gemini
// `responseSchema`), and its mock refuses a request that gets the shape wrong.
let server: MockProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const NATIVE_OUTPUT: Record<MockProvider, string> = {
  openai: '"response_format":{"type":"json_schema"',
  anthropic: '"output_config":{"format":{"type":"json_schema"',
  gemini: '"responseMimeType":"application/json"',
};

const adapters: Record<MockProvider, (baseURL: string) => ModelAdapter> = {
  openai: (baseURL) => createOpenAIAdapter({ model: 'gpt-test', baseURL, apiKey: 'sk-test' }),
  anthropic: (baseURL) => createAnthropicAdapter({ model: 'claude-test', baseURL, apiKey: 'sk-test' }),
  gemini: (baseURL) => createGeminiAdapter({ model: 'gemini-test', baseURL, apiKey: 'sk-test' }),
};

describe.each(Object.keys(adapters) as MockProvider[])(
  'runtime chat with output on the %s adapter',
  (provider) => {
    it('calls a tool, then returns the object, with partial objects on the way', async () => {
      server = await startMockProviderServer({
        provider,
        turns: [
          { toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] },
          { text: JSON.stringify(OSLO), chunkSize: 6 },
        ],
      });
      const model = adapters[provider](server.baseURL);
      expect(model.capabilities.structuredOutput).toBe(true);
      const runtime = createAgentRuntime({
        store: createMemoryConversationStore(),
        model,
        tools: [weatherTool],
        settings: { compression: false },
      });
      const partials: unknown[] = [];
      const result = await runtime.chat({
        userInput: 'Weather in Oslo?',
        output: Weather,
        onEvent: (event) => {
          if (event.type === 'partial_object') partials.push(event.object);
        },
      });
      expect(result.error).toBeUndefined();
      expect(result.object).toEqual(OSLO);
      expect(partials.at(-1)).toEqual(OSLO);
      expect(server.requests).toHaveLength(2);
      for (const request of server.requests) {
        const body = JSON.stringify(request.body);
        expect(body).toContain(NATIVE_OUTPUT[provider]);
        expect(body).not.toContain('answer with one JSON value that matches');
      }
    });
  },
);
