import { CairnError } from '@cairn/core';
import type { ConversationEventBus } from '../events/conversation-events.js';
import { ConversationListeners } from '../events/conversation-listeners.js';
import type { WorkerChannel } from './worker-channel.js';

/**
 * The event bus of a cluster worker on the fs or SQLite store: a change is emitted here and sent to
 * the primary, which relays it to the other workers. Notices only wake `/events` feeds (they read the
 * store from their last sent seq), so a notice lost with a dying primary loses no message.
 */
export function createIpcEventBus(channel: WorkerChannel): ConversationEventBus {
  const listeners = new ConversationListeners();
  let closed = false;
  const unsubscribe = channel.onMessage((message) => {
    if (message.cairn === 'event' && !closed) listeners.emit(message.event);
  });
  return {
    async publish(event) {
      if (closed) return;
      listeners.emit(event);
      channel.send({ cairn: 'event', event });
    },
    subscribe(conversationId, listener) {
      return closed ? () => {} : listeners.add(conversationId, listener);
    },
    async ready() {
      if (closed) throw new CairnError('STORE_UNAVAILABLE', 'the event bus is closed');
      if (channel.disconnected.aborted) {
        throw new CairnError('STORE_UNAVAILABLE', 'the cluster primary is gone');
      }
    },
    async close() {
      closed = true;
      unsubscribe();
      listeners.clear();
    },
  };
}
