import { CairnError, type ConversationStore } from '@cairn/core';
import { createMemoryConversationStore } from '@cairn/storage';
import { ScriptedModel } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { createAgentRuntime } from '../src/index.js';

// A chat turn survives what goes wrong around it: a throwing listener, a store that drops an answer,
// bad arguments and a cancelled turn (refused before anything is written).

describe('runtime chat resilience', () => {
  it('does not fail a turn when an event listener throws', async () => {
    const store = createMemoryConversationStore();
    const runtime = createAgentRuntime({
      store,
      model: new ScriptedModel({ turns: [{ text: 'Hello.' }] }),
      settings: { compression: false },
    });
    const result = await runtime.chat({
      userInput: 'Hi',
      onEvent: () => {
        throw new Error('socket closed');
      },
    });
    expect(result).toMatchObject({ success: true, message: { content: 'Hello.' } });
  });

  it('tries a briefly unavailable store again, without storing anything twice', async () => {
    const store = createMemoryConversationStore();
    let failures = 1;
    const flaky: ConversationStore = new Proxy(store, {
      get(target, property) {
        if (property === 'append') {
          return async (...args: Parameters<ConversationStore['append']>) => {
            const result = await target.append(...args);
            // The write landed, the answer was lost: the retry must find it by its key.
            if (failures-- > 0) throw new CairnError('STORE_UNAVAILABLE', 'connection reset');
            return result;
          };
        }
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const runtime = createAgentRuntime({
      store: flaky,
      model: new ScriptedModel({ turns: [{ text: 'Hello.' }] }),
      settings: { compression: false },
    });
    const result = await runtime.chat({ conversationId: 'c', userInput: 'Hi' });
    expect(result.success).toBe(true);
    expect((await store.load('c')).map((message) => message.content)).toEqual(['Hi', 'Hello.']);
  });

  it('checks a chat call before writing anything, and writes nothing for a turn cancelled in the queue', async () => {
    const store = createMemoryConversationStore();
    const runtime = createAgentRuntime({
      store,
      model: new ScriptedModel({ turns: [] }),
      settings: { compression: false },
    });
    const refused = expect.objectContaining({ code: expect.stringMatching(/INVALID_ARGUMENT|INVALID_ID/) });
    await expect(runtime.chat({ conversationId: 'c', userInput: 'x', mode: 'run' as never })).rejects.toEqual(
      refused,
    );
    await expect(runtime.chat({ conversationId: 'c', userInput: 'x', agent: { id: '' } })).rejects.toEqual(
      refused,
    );
    await expect(
      runtime.chat({ conversationId: 'c', userInput: 'x', extraUserMessages: [42 as never] }),
    ).rejects.toEqual(refused);
    const controller = new AbortController();
    controller.abort();
    const cancelled = await runtime.chat({ conversationId: 'c', userInput: 'x', signal: controller.signal });
    expect(cancelled).toMatchObject({
      success: false,
      finishReason: 'aborted',
      error: { code: 'LLM_ABORTED' },
    });
    expect(await store.load('c')).toEqual([]);
  });
});
