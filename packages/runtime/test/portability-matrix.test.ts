// Issue Q's portability matrix: one conversation — a compaction record, an image, reasoning,
// parallel tool calls one of which fails — moves between every ordered pair of providers
// (Anthropic, OpenAI Responses, OpenAI Chat, Gemini 3), turn by turn, through the real adapters
// against mocks that enforce each vendor's replay rules (every request must pass them). Going back to
// the first provider, its reasoning artifacts (signatures, encrypted reasoning) are sent again byte
// for byte; the other provider never receives them (the documented rule: each provider's
// `providerMetadata` namespace, and reasoning carrying another provider's, are left out).
import { type ConversationMessage, createImagePart, type JsonValue, type ModelAdapter } from '@cairn/core';
import { defineTool } from '@cairn/loop';
import { createAnthropicAdapter } from '@cairn/provider-anthropic';
import { createGeminiAdapter } from '@cairn/provider-gemini';
import { createOpenAIAdapter, createOpenAIResponsesAdapter } from '@cairn/provider-openai';
import { createMemoryConversationStore } from '@cairn/storage';
import { type MockServerProvider, type ScriptTurn, startMockProviderServer } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgentRuntime } from '../src/index.js';

interface Provider {
  mock: MockServerProvider;
  adapter(baseURL: string): ModelAdapter;
}

const PROVIDERS: Record<string, Provider> = {
  anthropic: {
    mock: 'anthropic',
    adapter: (baseURL) => createAnthropicAdapter({ model: 'claude-sonnet-5-5', baseURL, apiKey: 'sk-test' }),
  },
  'openai-responses': {
    mock: 'openai-responses',
    adapter: (baseURL) => createOpenAIResponsesAdapter({ model: 'gpt-5', baseURL, apiKey: 'sk-test' }),
  },
  'openai-chat': {
    mock: 'openai',
    adapter: (baseURL) => createOpenAIAdapter({ model: 'gpt-4.1-mini', baseURL, apiKey: 'sk-test' }),
  },
  gemini: {
    mock: 'gemini',
    adapter: (baseURL) => createGeminiAdapter({ model: 'gemini-3-pro-preview', baseURL, apiKey: 'sk-test' }),
  },
};

// A 1×1 PNG padded so the store keeps it as a blob.
const IMAGE = Buffer.concat([
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  ),
  Buffer.alloc(6000),
]);

const tools = [
  defineTool({
    name: 'get_weather',
    description: 'The weather in a city',
    category: 'read',
    input: z.object({ city: z.string() }),
    execute: async ({ city }) => `${city}: 4 °C, cloudy`,
  }),
  defineTool({
    name: 'get_tide',
    description: 'The tide table of a harbour',
    category: 'read',
    input: z.object({ harbour: z.string() }),
    execute: async () => {
      throw new Error('the tide service is down');
    },
  }),
];

// The strings a provider needs back byte for byte: signatures and encrypted reasoning.
const ARTIFACT_KEYS = new Set(['signature', 'thoughtSignature', 'encryptedContent', 'encrypted_content']);
function artifacts(value: JsonValue | undefined, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) artifacts(item, found);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (ARTIFACT_KEYS.has(key) && typeof item === 'string' && item.length >= 8) found.push(item);
      else artifacts(item as JsonValue, found);
    }
  }
  return found;
}
const artifactsOf = (messages: ConversationMessage[]) =>
  artifacts(
    messages.map((message) => ({
      meta: message.providerMetadata ?? null,
      reasoning: message.reasoning ?? null,
    })) as JsonValue,
  );

async function turnOn(
  provider: Provider,
  store: ReturnType<typeof createMemoryConversationStore>,
  turns: ScriptTurn[],
  params: {
    conversationId: string;
    userInput: Parameters<ReturnType<typeof createAgentRuntime>['chat']>[0]['userInput'];
  },
) {
  const server = await startMockProviderServer({ provider: provider.mock, turns });
  try {
    const runtime = createAgentRuntime({
      store,
      model: provider.adapter(server.baseURL),
      tools,
      settings: { compression: false },
    });
    const result = await runtime.chat(params);
    const bodies = server.requests.map((request) => JSON.stringify(request.body));
    return { result, bodies };
  } finally {
    await server.close();
  }
}

const PAIRS = Object.keys(PROVIDERS).flatMap((first) =>
  Object.keys(PROVIDERS)
    .filter((second) => second !== first)
    .map((second) => [first, second] as const),
);

describe.each(PAIRS)('a conversation moving from %s to %s and back', (firstName, secondName) => {
  it('passes every enforcing mock; same-provider artifacts come back byte for byte, none cross over', async () => {
    const first = PROVIDERS[firstName] as Provider;
    const second = PROVIDERS[secondName] as Provider;
    const store = createMemoryConversationStore();
    const conversationId = 'matrix';
    const createdAt = new Date().toISOString();
    // Two earlier messages, summarised by a compaction record.
    await store.append(conversationId, [
      { id: 'u0', role: 'user', createdAt, content: 'We are planning a sailing trip to Bergen.' },
      { id: 'a0', role: 'assistant', createdAt, content: 'Happy to help plan it.' },
      {
        id: 'c0',
        role: 'system',
        createdAt,
        partType: 'compaction',
        content: 'The user plans a sailing trip to Bergen.',
        compaction: { fromSeq: 1, toSeq: 2 },
      },
    ]);

    const one = await turnOn(
      first,
      store,
      [
        {
          reasoning: 'I need the weather and the tides.',
          toolCalls: [
            { name: 'get_weather', arguments: { city: 'Bergen' } },
            { name: 'get_tide', arguments: { harbour: 'Bergen' } },
          ],
        },
        {
          reasoning: 'The tide service failed; answer with the weather.',
          text: 'Cloudy, 4 °C; no tide table.',
        },
      ],
      {
        conversationId,
        userInput: [
          { type: 'text', text: 'Here is our route. Weather and tides?' },
          createImagePart(IMAGE, { fileName: 'route.png' }),
        ],
      },
    );
    expect(one.result.error, `${firstName}: ${one.result.error?.message}`).toBeUndefined();
    const afterOne = await store.load(conversationId);
    expect(afterOne.some((message) => message.role === 'tool' && message.isError)).toBe(true);
    const firstArtifacts = artifactsOf(afterOne);
    // Reasoning is replayed by signature or encrypted content everywhere but OpenAI Chat.
    if (firstName !== 'openai-chat')
      expect(firstArtifacts.length, `${firstName} left artifacts`).toBeGreaterThan(0);

    const two = await turnOn(second, store, [{ reasoning: 'Summarise.', text: 'Bring rain gear.' }], {
      conversationId,
      userInput: 'What should we pack?',
    });
    expect(two.result.error, `${secondName}: ${two.result.error?.message}`).toBeUndefined();
    for (const artifact of firstArtifacts) {
      expect(two.bodies.join('\n').includes(artifact), `${firstName}'s artifact reached ${secondName}`).toBe(
        false,
      );
    }
    expect(two.bodies.at(-1)).toContain('Cloudy, 4 °C; no tide table.');

    const three = await turnOn(first, store, [{ text: 'Have a good trip.' }], {
      conversationId,
      userInput: 'Thanks!',
    });
    expect(three.result.error, `${firstName} again: ${three.result.error?.message}`).toBeUndefined();
    const sentBack = three.bodies.at(-1) ?? '';
    for (const artifact of firstArtifacts) {
      expect(sentBack.includes(artifact), `${firstName} got its own artifact back`).toBe(true);
    }
  });
});
