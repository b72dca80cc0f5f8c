import { KeyedSerialQueue } from '@cairn/core';
import { runQueuedUnlessAborted } from './run-queued-unless-aborted.js';
import type { ConversationTurnLock } from './turn-lock.js';

/** Serialises turns within this process only: enough for a single server instance. */
export function createInProcessTurnLock(): ConversationTurnLock {
  const queue = new KeyedSerialQueue();
  return {
    run(conversationId, work, options = {}) {
      return runQueuedUnlessAborted(queue, conversationId, work, options.signal);
    },
    // Nothing to release: queued runs finish on their own.
    async close() {},
  };
}
