import { CairnError } from '@cairn/core';
import type { ConversationEventBus } from './conversation-events.js';
import { ConversationListeners } from './conversation-listeners.js';

/** A bus for a single server instance: `publish` calls this process's listeners, nothing else. */
export function createInProcessEventBus(): ConversationEventBus {
  const listeners = new ConversationListeners();
  let closed = false;
  return {
    async publish(event) {
      if (!closed) listeners.emit(event);
    },
    subscribe(conversationId, listener) {
      return closed ? () => {} : listeners.add(conversationId, listener);
    },
    async ready() {
      if (closed) throw new CairnError('STORE_UNAVAILABLE', 'the event bus is closed');
    },
    async close() {
      closed = true;
      listeners.clear();
    },
  };
}
