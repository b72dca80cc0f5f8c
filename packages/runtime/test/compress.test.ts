import { createTokenizer } from '@cairn/compression';
import type { ConversationMessage, ConversationStore } from '@cairn/core';
import { createMemoryConversationStore } from '@cairn/storage';
import { ScriptedModel } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { createAgentRuntime, type RuntimeAgent, type RuntimeEvent } from '../src/index.js';
import { STORE_BACKENDS, useStoreBackend } from './stores.js';

// `runtime.compress`, a `/compress` command: summarise the older part of a conversation now.

const SUMMARY = 'They talked about lorem ipsum at length.';

const reviewer: RuntimeAgent = { id: 'reviewer', name: 'Ada', role: 'Code reviewer' };

/** `count` stored messages, user and assistant in turn, well under any trigger. */
async function storeHistory(store: ConversationStore, conversationId: string, count: number) {
  const createdAt = new Date().toISOString();
  const messages = Array.from(
    { length: count },
    (_, index): ConversationMessage => ({
      id: `${conversationId}-${index}`,
      role: index % 2 === 0 ? 'user' : 'assistant',
      createdAt,
      content: `message ${index} ${'lorem ipsum dolor sit amet '.repeat(20)}`,
    }),
  );
  await store.append(conversationId, messages);
  return messages;
}

const runtimeEvents = (events: RuntimeEvent[]) => (event: { type: string }) => {
  if (event.type === 'runtime') events.push(event as RuntimeEvent);
};

describe.each(STORE_BACKENDS)('runtime compress on the $name store', (backend) => {
  const { open } = useStoreBackend(backend);

  it('summarises all before the recent window now, stores it, and the next chat sends it without summarising again', async () => {
    const store = open();
    const old = await storeHistory(store, 'conv-long', 30);
    const model = new ScriptedModel({ turns: [{ text: SUMMARY }, { text: 'Answer.' }] });
    const runtime = createAgentRuntime({ store, model });
    const events: RuntimeEvent[] = [];
    const result = await runtime.compress({
      conversationId: 'conv-long',
      mode: 'agent',
      agent: reviewer,
      onEvent: runtimeEvents(events),
    });
    expect(result).toMatchObject({
      conversationId: 'conv-long',
      compressed: true,
      steps: ['summarize'],
      summaries: 1,
    });
    expect(result.reason).toBeUndefined();
    expect(result.tokensAfter).toBeLessThan(result.tokensBefore);
    // The summariser read the 20 messages before the recent window (10 messages, whole turns).
    const transcript = String(model.requests[0]?.messages.at(-1)?.content);
    expect(transcript).toContain('message 19 ');
    expect(transcript).not.toContain('message 20 ');

    const record = (await store.load('conv-long')).at(-1);
    expect(record).toMatchObject({
      role: 'system',
      partType: 'compaction',
      content: SUMMARY,
      mode: 'agent',
      agentId: 'reviewer',
      compaction: { fromSeq: 1, toSeq: 20 },
    });
    expect(events).toEqual([
      {
        type: 'runtime',
        event: 'compression_applied',
        conversationId: 'conv-long',
        compressed: true,
        tokensBefore: result.tokensBefore,
        tokensAfter: result.tokensAfter,
        steps: ['summarize'],
      },
      { type: 'runtime', event: 'message_persisted', conversationId: 'conv-long', message: record },
    ]);

    const next = await runtime.chat({
      conversationId: 'conv-long',
      userInput: 'And now?',
      mode: 'agent',
      agent: reviewer,
    });
    expect(next.success).toBe(true);
    // One summary only: the chat's model call is the second and last request.
    expect(model.requests).toHaveLength(2);
    const sent = model.requests[1]?.messages ?? [];
    expect(sent[1]).toEqual({ role: 'user', content: expect.stringContaining(SUMMARY) });
    expect(sent.slice(2).map((message) => message.content)).toEqual([
      ...old.slice(20).map((message) => message.content),
      'And now?',
    ]);
    // compress measured the very request this turn sent, up to its new message.
    const tokenizer = createTokenizer({ provider: model.provider, model: model.modelId });
    expect(tokenizer.count(sent.slice(0, -1))).toBe(result.tokensAfter);
  });

  it('leaves a conversation that is all recent window as it is, and says why', async () => {
    const store = open();
    await storeHistory(store, 'conv-short', 4);
    const model = new ScriptedModel({ turns: [] });
    const events: RuntimeEvent[] = [];
    const result = await createAgentRuntime({ store, model }).compress({
      conversationId: 'conv-short',
      onEvent: runtimeEvents(events),
    });
    expect(result).toMatchObject({ compressed: false, steps: [], summaries: 0 });
    expect(result.reason).toMatch(/^nothing to compress/);
    expect(result.tokensAfter).toBe(result.tokensBefore);
    expect(model.requests).toEqual([]);
    expect(events).toEqual([]);
    expect(await store.load('conv-short')).toHaveLength(4);
  });

  it('stores nothing when the summariser fails, and says why', async () => {
    const store = open();
    await storeHistory(store, 'conv-failing', 30);
    const model = new ScriptedModel({ turns: [{ fault: { status: 401 } }] });
    const events: RuntimeEvent[] = [];
    const result = await createAgentRuntime({ store, model }).compress({
      conversationId: 'conv-failing',
      onEvent: runtimeEvents(events),
    });
    expect(result).toMatchObject({ compressed: false, steps: [], summaries: 0 });
    expect(result.reason).toMatch(/^could not summarise: /);
    expect(result.tokensAfter).toBe(result.tokensBefore);
    expect(events).toEqual([]);
    expect(await store.load('conv-failing')).toHaveLength(30);
  });

  it('waits for the running turn of the conversation, never running beside it', async () => {
    const store = open();
    await storeHistory(store, 'conv-busy', 14);
    const model = new ScriptedModel({ turns: [{ text: 'first', delayMs: 50 }, { text: SUMMARY }] });
    const runtime = createAgentRuntime({ store, model });
    const [chatted, compressed] = await Promise.all([
      runtime.chat({ conversationId: 'conv-busy', userInput: 'one' }),
      runtime.compress({ conversationId: 'conv-busy' }),
    ]);
    expect(chatted.success).toBe(true);
    expect(compressed.compressed).toBe(true);
    // The summary was written after the turn's answer, from a history that already had it.
    expect((await store.load('conv-busy')).slice(-3).map((message) => message.content)).toEqual([
      'one',
      'first',
      SUMMARY,
    ]);
    expect(model.requests[0]?.messages.at(-1)?.content).toBe('one');
  });

  it('refuses a conversation with no messages', async () => {
    const runtime = createAgentRuntime({ store: open(), model: new ScriptedModel({ turns: [] }) });
    await expect(runtime.compress({ conversationId: 'nobody' })).rejects.toMatchObject({
      code: 'STORE_NOT_FOUND',
    });
  });
});

describe('runtime compress', () => {
  it('refuses an unsafe id, a bad mode, and a runtime that does not compress or summarise', async () => {
    const store = createMemoryConversationStore();
    await storeHistory(store, 'c', 30);
    const model = new ScriptedModel({ turns: [] });
    const runtime = createAgentRuntime({ store, model });
    await expect(runtime.compress({ conversationId: '../etc' })).rejects.toMatchObject({
      code: 'INVALID_ID',
    });
    await expect(runtime.compress({ conversationId: 'c', mode: 'run' as 'chat' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    const off = createAgentRuntime({ store, model, settings: { compression: false } });
    await expect(off.compress({ conversationId: 'c' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'compression is turned off for this runtime',
    });
    const noSummaries = createAgentRuntime({ store, model, settings: { compression: { summarize: false } } });
    await expect(noSummaries.compress({ conversationId: 'c' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringMatching(/does not summarise/),
    });
    expect(model.requests).toEqual([]);
    expect(await store.load('c')).toHaveLength(30);
  });
});
