import type { ConversationMessage } from '@cairn/core';
import { createMemoryConversationStore } from '@cairn/storage';
import { describe, expect, it } from 'vitest';
import { createInProcessEventBus } from '../events/in-process-event-bus.js';
import { startMessageFeed } from './message-feed.js';

const userMessage = (id: string): ConversationMessage => ({
  id,
  role: 'user',
  content: id,
  createdAt: '2025-01-01T00:00:00.000Z',
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

describe('startMessageFeed', () => {
  it('reads one at a time and sends every message once, however the notices pile up', async () => {
    const store = createMemoryConversationStore();
    const events = createInProcessEventBus();
    await store.append('c1', [userMessage('a'), userMessage('b')]);
    let reading = 0;
    let overlapped = false;
    const load = store.load.bind(store);
    store.load = async (...args) => {
      overlapped ||= reading > 0;
      reading += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      reading -= 1;
      return load(...args);
    };
    const sent: number[] = [];
    const stop = startMessageFeed({
      store,
      events,
      conversationId: 'c1',
      afterSeq: 1,
      send: async (message) => void sent.push(message.seq ?? 0),
      onError: () => expect.fail('no store error expected'),
    });
    for (let seq = 3; seq <= 6; seq += 1) {
      await store.append('c1', [userMessage(`m${seq}`)]);
      for (const lastSeq of [seq, -1, seq - 1]) await events.publish({ conversationId: 'c1', lastSeq });
    }
    await settle();
    expect(sent).toEqual([2, 3, 4, 5, 6]);
    expect(overlapped).toBe(false);
    stop();
    await store.append('c1', [userMessage('late')]);
    await events.publish({ conversationId: 'c1', lastSeq: 7 });
    await settle();
    expect(sent).toHaveLength(5);
  });

  it('stops and reports when the store fails', async () => {
    const store = createMemoryConversationStore();
    const events = createInProcessEventBus();
    const failure = new Error('down');
    store.load = async () => {
      throw failure;
    };
    const errors: unknown[] = [];
    startMessageFeed({
      store,
      events,
      conversationId: 'c1',
      afterSeq: 0,
      send: async () => {},
      onError: (error) => errors.push(error),
    });
    await settle();
    await events.publish({ conversationId: 'c1', lastSeq: 1 });
    await settle();
    expect(errors).toEqual([failure]);
  });
});
