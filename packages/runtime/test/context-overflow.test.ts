import type { ConversationStore, ModelAdapter } from '@cairn/core';
import { createAnthropicAdapter } from '@cairn/provider-anthropic';
import { createGeminiAdapter } from '@cairn/provider-gemini';
import { createOpenAIAdapter } from '@cairn/provider-openai';
import { createMemoryConversationStore } from '@cairn/storage';
import { type MockProvider, type MockProviderServer, startMockProviderServer } from '@cairn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentRuntime, type RuntimeEvent } from '../src/index.js';

// The model refuses a request as too long although the estimate said it fits (its window is smaller
// than configured, or the estimate is off): the runtime compacts and tries the call once more. Real
// adapters (official SDKs) against @cairn/testing's servers, which answer with each API's own
// context-length error.

let server: MockProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const adapters: Record<MockProvider, (baseURL: string) => ModelAdapter> = {
  openai: (baseURL) => createOpenAIAdapter({ model: 'gpt-test', baseURL, apiKey: 'sk-test' }),
  anthropic: (baseURL) => createAnthropicAdapter({ model: 'claude-test', baseURL, apiKey: 'sk-test' }),
  gemini: (baseURL) => createGeminiAdapter({ model: 'gemini-test', baseURL, apiKey: 'test-key' }),
};

const OLD_TOPIC = 'the old topic';

// Ten earlier messages: far under the configured budget, so nothing compresses them beforehand.
async function seedHistory(store: ConversationStore, conversationId: string): Promise<void> {
  await store.append(
    conversationId,
    Array.from({ length: 10 }, (_, index) => ({
      id: `old-${index}`,
      role: index % 2 === 0 ? ('user' as const) : ('assistant' as const),
      createdAt: new Date().toISOString(),
      content: `${index}: more about ${OLD_TOPIC}, ${'and on '.repeat(40)}`,
    })),
  );
}

const overflow = { fault: { status: 400, contextOverflow: true } };

describe.each(Object.keys(adapters) as MockProvider[])('context overflow with the %s adapter', (provider) => {
  async function start(turns: Parameters<typeof startMockProviderServer>[0]['turns']) {
    server = await startMockProviderServer({ provider, turns });
    const store = createMemoryConversationStore();
    await seedHistory(store, 'c1');
    const runtime = createAgentRuntime({
      store,
      model: adapters[provider](server.baseURL),
      settings: { compression: { tokenBudget: 1_000_000, minRecentMessages: 2 } },
    });
    const events: RuntimeEvent[] = [];
    const onEvent = (event: { type: string }) => {
      if (event.type === 'runtime') events.push(event as RuntimeEvent);
    };
    return { store, runtime, events, onEvent, server };
  }

  it('compacts the conversation, stores the compaction record, reports it, and retries the call once', async () => {
    const { store, runtime, events, onEvent, server } = await start([
      overflow,
      { text: 'Earlier, the user and the assistant discussed the old topic at length.' },
      { text: 'Here is the answer, after the compaction.' },
    ]);
    const result = await runtime.chat({ conversationId: 'c1', userInput: 'And now?', onEvent });
    expect(result.error).toBeUndefined();
    expect(result).toMatchObject({
      success: true,
      text: 'Here is the answer, after the compaction.',
      turns: 2,
    });
    const log = await store.load('c1');
    const records = log.filter((message) => message.partType === 'compaction');
    expect(records).toHaveLength(1);
    expect(records[0]?.content).toContain('discussed the old topic');
    expect(log.at(-1)).toMatchObject({
      role: 'assistant',
      content: 'Here is the answer, after the compaction.',
      // The model that wrote it, recorded by the loop for a plain adapter too.
      providerMetadata: { cairn: { provider } },
    });
    expect(log.some((message) => message.partType === 'error')).toBe(false);
    expect(events.filter((event) => event.event === 'compression_applied')).toEqual([
      expect.objectContaining({ conversationId: 'c1', trigger: 'context_overflow', compressed: true }),
    ]);
    // The refused request, the summary, the retried request: smaller, the summary in place of the old turns.
    expect(server.requests).toHaveLength(3);
    const [refused, , retried] = server.requests.map((request) => JSON.stringify(request.body));
    expect(refused).toContain('0: more about the old topic');
    expect(retried).not.toContain('0: more about the old topic');
    expect(retried).toContain('discussed the old topic');
    expect(retried?.length).toBeLessThan(refused?.length ?? 0);
  });

  it('fails the turn as before when the retried call overflows again', async () => {
    const { store, runtime, events, onEvent, server } = await start([
      overflow,
      { text: 'A summary of the old topic.' },
      overflow,
    ]);
    const result = await runtime.chat({ conversationId: 'c1', userInput: 'And now?', onEvent });
    expect(result).toMatchObject({ success: false, error: { code: 'LLM_CONTEXT_OVERFLOW' } });
    const log = await store.load('c1');
    expect(log.filter((message) => message.partType === 'compaction')).toHaveLength(1);
    expect(log.at(-1)).toMatchObject({
      role: 'assistant',
      partType: 'error',
      errorCode: 'LLM_CONTEXT_OVERFLOW',
    });
    expect(events.filter((event) => event.event === 'compression_applied')).toHaveLength(1);
    expect(server.requests).toHaveLength(3);
  });
});
