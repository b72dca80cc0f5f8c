import type { ConversationMessage, ConversationStore } from '@cairn/core';
import type { ConversationEventBus } from '../events/conversation-events.js';

// Messages read per store query while catching up.
const PAGE_SIZE = 200;

export interface MessageFeedOptions {
  store: ConversationStore;
  events: ConversationEventBus;
  conversationId: string;
  /** The last seq the client has (0 for none). */
  afterSeq: number;
  /** Delivers one message; the next is sent after it resolves. */
  send(message: ConversationMessage): Promise<void>;
  /** The store failed: the feed has stopped. */
  onError(error: unknown): void;
}

/**
 * Sends a conversation's stored messages after `afterSeq`, then each new one as the bus reports
 * changes. The store is the only source: a change notice just says "read from your last seq", so a
 * missed or repeated notice, another instance's turn or a reconnect never makes a gap or a
 * duplicate. Reads run one at a time; notices during a read cause one more read after it.
 * Returns the stop function.
 */
export function startMessageFeed(options: MessageFeedOptions): () => void {
  const { store, conversationId } = options;
  let lastSent = options.afterSeq;
  let stale = false;
  let reading = false;
  let stopped = false;

  const readNewMessages = async () => {
    while (stale && !stopped) {
      stale = false;
      let page: ConversationMessage[];
      do {
        page = await store.load(conversationId, { fromSeq: lastSent + 1, limit: PAGE_SIZE });
        for (const message of page) {
          if (stopped) return;
          if (message.seq === undefined || message.seq <= lastSent) continue;
          await options.send(message);
          lastSent = message.seq;
        }
      } while (page.length === PAGE_SIZE);
    }
  };

  const check = () => {
    stale = true;
    if (reading || stopped) return;
    reading = true;
    readNewMessages()
      .catch((error: unknown) => {
        stop();
        options.onError(error);
      })
      .finally(() => {
        reading = false;
        // A notice that came as the read finished.
        if (stale && !stopped) check();
      });
  };

  // Subscribed before the first read, so a message stored meanwhile is not missed.
  const unsubscribe = options.events.subscribe(conversationId, (event) => {
    // `-1` means "re-check"; an older seq is already sent.
    if (event.lastSeq === -1 || event.lastSeq > lastSent) check();
  });
  const stop = () => {
    stopped = true;
    unsubscribe();
  };
  check();
  return stop;
}
