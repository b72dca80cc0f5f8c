import { createAnthropicAdapter } from '@cairn/provider-anthropic';
import { createGeminiAdapter } from '@cairn/provider-gemini';
import { createFallbackModel } from '@cairn/provider-utils';
import { createMemoryConversationStore } from '@cairn/storage';
import { type MockProviderServer, startMockProviderServer } from '@cairn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentRuntime } from '../src/index.js';

// A fallback model behind the runtime, on the real adapters against @cairn/testing's servers: the
// log keeps which model wrote each answer, and the cut-off answer of the model that failed.

const servers: MockProviderServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('runtime with createFallbackModel', () => {
  it('stores the cut-off answer and the next model’s, each with the model that wrote it', async () => {
    const anthropic = await startMockProviderServer({
      provider: 'anthropic',
      turns: [
        { text: 'Oslo is very cold today, about', chunkSize: 4, cutAfterEvents: 6 },
        { text: 'Yes, still cold.' },
      ],
    });
    const gemini = await startMockProviderServer({ provider: 'gemini', turns: [{ text: 'Oslo: -3 °C.' }] });
    servers.push(anthropic, gemini);
    const store = createMemoryConversationStore();
    const runtime = createAgentRuntime({
      store,
      model: createFallbackModel([
        createAnthropicAdapter({
          model: 'claude-test',
          baseURL: anthropic.baseURL,
          apiKey: 'sk-test',
          maxRetries: 0,
        }),
        createGeminiAdapter({ model: 'gemini-test', baseURL: gemini.baseURL, apiKey: 'test-key' }),
      ]),
      settings: { compression: false },
    });
    const first = await runtime.chat({ userInput: 'Weather in Oslo?' });
    expect(first.error).toBeUndefined();
    expect(first).toMatchObject({ success: true, text: 'Oslo: -3 °C.' });
    const log = await store.load(first.conversationId);
    expect(log.map((message) => [message.role, message.interrupted ?? false])).toEqual([
      ['user', false],
      ['assistant', true],
      ['assistant', false],
    ]);
    expect(log[1]?.providerMetadata?.cairn).toEqual({ provider: 'anthropic', model: 'claude-test' });
    expect(log[2]?.providerMetadata?.cairn).toMatchObject({ provider: 'gemini' });
    // The next turn goes to the primary again, which has recovered; its answer records it.
    const second = await runtime.chat({ conversationId: first.conversationId, userInput: 'Still?' });
    expect(second).toMatchObject({ success: true, text: 'Yes, still cold.' });
    expect(second.message?.providerMetadata?.cairn).toMatchObject({ provider: 'anthropic' });
    // The primary got the history with the cut-off answer marked as such, and no `cairn` namespace.
    const replay = JSON.stringify(anthropic.requests[1]?.body);
    expect(replay).toContain('This reply was cut off');
    expect(replay).toContain('Oslo: -3 °C.');
    expect(replay).not.toContain('"cairn"');
  });
});
