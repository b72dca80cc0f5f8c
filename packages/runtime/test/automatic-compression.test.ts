import type { ConversationStore } from '@cairn/core';
import { createMemoryConversationStore } from '@cairn/storage';
import { ScriptedModel } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { createAgentRuntime } from '../src/index.js';

// When `chat` compresses on its own: per conversation, against the tokens the provider reports.

const longHistory = (store: ConversationStore, id: string, messages: number, words: number) =>
  store.append(
    id,
    Array.from({ length: messages }, (_, index) => ({
      id: `${id}-${index}`,
      role: index % 2 === 0 ? ('user' as const) : ('assistant' as const),
      createdAt: new Date().toISOString(),
      content: `${index} ${'lorem ipsum '.repeat(words)}`,
    })),
  );

describe('runtime automatic compression', () => {
  it('keeps one conversation’s failed compression from holding back another’s', async () => {
    const store = createMemoryConversationStore();
    await longHistory(store, 'big', 4, 800);
    await longHistory(store, 'small', 12, 60);
    const model = new ScriptedModel({ turns: () => ({ text: 'ok' }) });
    const runtime = createAgentRuntime({
      store,
      model,
      settings: { compression: { tokenBudget: 1_200, minRecentMessages: 4, summarize: false } },
    });
    const compressed: string[] = [];
    const onEvent = (event: { type: string; event?: string; conversationId?: string }) => {
      if (event.type === 'runtime' && event.event === 'compression_applied')
        compressed.push(event.conversationId as string);
    };
    await runtime.chat({ conversationId: 'big', userInput: 'x', onEvent });
    await runtime.chat({ conversationId: 'small', userInput: 'y', onEvent });
    expect(compressed).toEqual(['big', 'small']);
  });
});

describe('runtime token calibration', () => {
  it('corrects its estimate with the input tokens the provider reported on the conversation’s earlier turns', async () => {
    const store = createMemoryConversationStore();
    // The provider counts 90,000 input tokens (its system prompt and tool schemas the estimate cannot see).
    const model = new ScriptedModel({
      provider: 'anthropic',
      turns: () => ({ text: 'ok', usage: { inputTokens: 90_000, outputTokens: 5 } }),
    });
    const runtime = createAgentRuntime({
      store,
      model,
      settings: { compression: { tokenBudget: 100_000, summarize: false } },
    });
    const compressedIn: string[] = [];
    const onEvent = (event: { type: string; event?: string; conversationId?: string }) => {
      if (event.type === 'runtime' && event.event === 'compression_applied')
        compressedIn.push(event.conversationId as string);
    };
    await runtime.chat({ conversationId: 'a', userInput: 'Hi', onEvent });
    expect(compressedIn).toEqual([]);
    // The same conversation now counts as over 80% of the budget; a new one does not.
    await runtime.chat({ conversationId: 'a', userInput: 'Again', onEvent });
    await runtime.chat({ conversationId: 'b', userInput: 'Hi', onEvent });
    expect(compressedIn).toEqual(['a']);
  });
});
