import type { ConversationMessage } from '@cairn/core';
import { createMemoryConversationStore } from '@cairn/storage';
import { simulatedDelay } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { createInProcessEventBus } from '../../events/in-process-event-bus.js';
import { conversationEpoch, type MessageFeedOptions, startMessageFeed } from './message-feed.js';

const userMessage = (id: string): ConversationMessage => ({
  id,
  role: 'user',
  content: id,
  createdAt: '2025-01-01T00:00:00.000Z',
});

// How long a test watches for what must not come (a send after stop or deletion, a second error):
// that nothing comes is the behaviour under test. What must come is awaited with `expect.poll`.
const quietPeriod = () => simulatedDelay(30);

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
      await simulatedDelay(5);
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
      onDeleted: () => expect.fail('no deletion expected'),
      onError: () => expect.fail('no store error expected'),
    });
    for (let seq = 3; seq <= 6; seq += 1) {
      await store.append('c1', [userMessage(`m${seq}`)]);
      for (const lastSeq of [seq, -1, seq - 1]) await events.publish({ conversationId: 'c1', lastSeq });
    }
    await expect.poll(() => sent).toEqual([2, 3, 4, 5, 6]);
    expect(sent).toEqual([2, 3, 4, 5, 6]);
    expect(overlapped).toBe(false);
    stop();
    await store.append('c1', [userMessage('late')]);
    await events.publish({ conversationId: 'c1', lastSeq: 7 });
    await quietPeriod();
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
      onDeleted: () => expect.fail('no deletion expected'),
      onError: (error) => errors.push(error),
    });
    await expect.poll(() => errors).toEqual([failure]);
    await events.publish({ conversationId: 'c1', lastSeq: 1 });
    await quietPeriod();
    expect(errors).toEqual([failure]);
  });

  describe('follows one incarnation of the conversation', () => {
    /** A feed recording what it sends (seq and content) and whether it ended deleted. */
    function recordFeed(options: Pick<MessageFeedOptions, 'store' | 'events' | 'afterSeq' | 'resume'>) {
      const sent: string[] = [];
      const epochs = new Set<string>();
      let deleted = 0;
      const stop = startMessageFeed({
        ...options,
        conversationId: 'c1',
        send: async (message, epoch) => {
          sent.push(`${message.seq}:${message.content}`);
          epochs.add(epoch);
        },
        onDeleted: () => {
          deleted += 1;
        },
        onError: () => expect.fail('no store error expected'),
      });
      return { sent, epochs, stop, deleted: () => deleted };
    }

    it('ends with onDeleted on a deletion notice, and sends nothing after it', async () => {
      const store = createMemoryConversationStore();
      const events = createInProcessEventBus();
      await store.append('c1', [userMessage('a'), userMessage('b')]);
      const feed = recordFeed({ store, events, afterSeq: 0 });
      await expect.poll(() => feed.sent).toEqual(['1:a', '2:b']);
      expect(feed.sent).toEqual(['1:a', '2:b']);
      const [first] = await store.load('c1', { limit: 1 });
      expect([...feed.epochs]).toEqual([conversationEpoch(first as ConversationMessage)]);
      await store.deleteConversation('c1');
      await events.publish({ conversationId: 'c1', lastSeq: 0, deleted: true });
      await store.append('c1', [userMessage('new')]);
      await events.publish({ conversationId: 'c1', lastSeq: 1 });
      await expect.poll(() => feed.deleted()).toBe(1);
      await quietPeriod();
      expect(feed.deleted()).toBe(1);
      expect(feed.sent).toEqual(['1:a', '2:b']);
    });

    it('never sends a re-created conversation’s messages, even when the deletion notice was missed', async () => {
      const store = createMemoryConversationStore();
      const events = createInProcessEventBus();
      await store.append('c1', [userMessage('a'), userMessage('b')]);
      const feed = recordFeed({ store, events, afterSeq: 0 });
      await expect.poll(() => feed.sent).toEqual(['1:a', '2:b']);
      await store.deleteConversation('c1');
      await store.append('c1', [userMessage('x'), userMessage('y'), userMessage('z')]);
      // The bus lost the notices (a LISTEN reconnect): it only says "re-check".
      await events.publish({ conversationId: 'c1', lastSeq: -1 });
      await expect.poll(() => feed.deleted()).toBe(1);
      await quietPeriod();
      expect(feed.sent).toEqual(['1:a', '2:b']);
      expect(feed.deleted()).toBe(1);
    });

    it('on resume, ends at once when the client’s history is another incarnation’s', async () => {
      const store = createMemoryConversationStore();
      const events = createInProcessEventBus();
      await store.append('c1', [userMessage('old-1'), userMessage('old-2')]);
      const [old] = await store.load('c1', { limit: 1 });
      const oldEpoch = conversationEpoch(old as ConversationMessage);
      await store.deleteConversation('c1');
      await store.append('c1', [userMessage('new-1'), userMessage('new-2'), userMessage('new-3')]);

      const withEpoch = recordFeed({ store, events, afterSeq: 2, resume: { epoch: oldEpoch } });
      // A bare seq the new conversation does not reach yet.
      const bareSeq = recordFeed({ store, events, afterSeq: 5, resume: {} });
      await expect.poll(() => withEpoch.deleted() + bareSeq.deleted()).toBe(2);
      for (const feed of [withEpoch, bareSeq]) {
        expect(feed.sent).toEqual([]);
        expect(feed.deleted()).toBe(1);
      }

      // The right epoch resumes where the client was.
      const [current] = await store.load('c1', { limit: 1 });
      const resumed = recordFeed({
        store,
        events,
        afterSeq: 2,
        resume: { epoch: conversationEpoch(current as ConversationMessage) },
      });
      await expect.poll(() => resumed.sent).toEqual(['3:new-3']);
      expect(resumed.sent).toEqual(['3:new-3']);
      expect(resumed.deleted()).toBe(0);
      resumed.stop();
    });

    it('on resume of a conversation deleted since, ends with onDeleted', async () => {
      const store = createMemoryConversationStore();
      const events = createInProcessEventBus();
      const feed = recordFeed({ store, events, afterSeq: 4, resume: { epoch: '0123abcd' } });
      await expect.poll(() => feed.deleted()).toBeGreaterThan(0);
      expect(feed.deleted()).toBe(1);
    });
  });
});
