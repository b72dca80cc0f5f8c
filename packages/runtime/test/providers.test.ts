import type { ModelAdapter } from '@cairn/core';
import { createToolHost } from '@cairn/loop';
import { createAnthropicAdapter } from '@cairn/provider-anthropic';
import { createGeminiAdapter } from '@cairn/provider-gemini';
import { createOpenAIAdapter } from '@cairn/provider-openai';
import { createMemoryConversationStore } from '@cairn/storage';
import { type MockProvider, type MockProviderServer, startMockProviderServer } from '@cairn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentRuntime, type RuntimeLogger } from '../src/index.js';
import { weatherTool } from './weather-tool.js';

// One chat turn per real adapter (the official SDK inside) against @cairn/testing's loopback server
// for its wire protocol, then a second turn replaying the stored history to the same server.

let server: MockProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const API_KEY = 'sk-secret-test-key';
const adapters: Record<MockProvider, (baseURL: string) => ModelAdapter> = {
  openai: (baseURL) => createOpenAIAdapter({ model: 'gpt-test', baseURL, apiKey: API_KEY }),
  anthropic: (baseURL) => createAnthropicAdapter({ model: 'claude-test', baseURL, apiKey: API_KEY }),
  gemini: (baseURL) => createGeminiAdapter({ model: 'gemini-test', baseURL, apiKey: API_KEY }),
};

describe.each(Object.keys(adapters) as MockProvider[])('runtime with the %s adapter', (provider) => {
  it('runs a tool-using turn, stores it, and replays the stored history on the next turn', async () => {
    server = await startMockProviderServer({
      provider,
      turns: [
        { text: 'Checking.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] },
        { text: 'It is -3 °C in Oslo.' },
        { text: 'Still cold.' },
      ],
    });
    const store = createMemoryConversationStore();
    const logged: unknown[] = [];
    const logger: RuntimeLogger = {
      debug: (fields, message) => void logged.push(fields, message),
      info: (fields, message) => void logged.push(fields, message),
      warn: (fields, message) => void logged.push(fields, message),
      error: (fields, message) => void logged.push(fields, message),
    };
    const runtime = createAgentRuntime({
      store,
      model: adapters[provider](server.baseURL),
      tools: createToolHost([weatherTool]),
      settings: { compression: false },
      logger,
    });
    const first = await runtime.chat({ userInput: 'Weather in Oslo?', mode: 'agent' });
    expect(first.error).toBeUndefined();
    expect(first.message?.content).toBe('It is -3 °C in Oslo.');
    const second = await runtime.chat({ conversationId: first.conversationId, userInput: 'Still?' });
    expect(second.message?.content).toBe('Still cold.');
    // The server checked each request (an unanswered call would be refused); the last one replays it all.
    expect(server.requests).toHaveLength(3);
    expect(JSON.stringify(server.requests[2]?.body)).toContain('Oslo: -3 °C');
    expect((await store.load(first.conversationId)).map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(JSON.stringify(logged)).not.toContain(API_KEY);
  });
});
