import { CairnError } from '@cairn/core';
import type { ConversationEventBus } from '../events/conversation-events.js';
import { ConversationListeners } from '../events/conversation-listeners.js';
import type { WorkerChannel } from './worker-channel.js';

/**
 * The event bus of a cluster worker on the fs or SQLite store: a change is emitted here and sent to
 * the primary, which relays it to the other workers that follow the conversation (this worker tells
 * it when its first listener of a conversation comes and its last goes; see `PrimaryEventRelay`).
 * Notices only wake `/events` feeds (they read the store from their last sent seq), so a notice lost
 * with a dying primary loses no message.
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
      if (closed) return () => {};
      const first = !listeners.has(conversationId);
      const unsubscribe = listeners.add(conversationId, listener);
      if (first) channel.send({ cairn: 'events-follow', conversationId, following: true });
      let subscribed = true;
      return () => {
        if (!subscribed) return;
        subscribed = false;
        unsubscribe();
        if (!closed && !listeners.has(conversationId)) {
          channel.send({ cairn: 'events-follow', conversationId, following: false });
        }
      };
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
