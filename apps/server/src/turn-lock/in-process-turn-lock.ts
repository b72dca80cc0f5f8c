import { CairnError, KeyedSerialQueue } from '@cairn/core';
import { runQueuedUnlessAborted } from './run-queued-unless-aborted.js';
import type { ConversationTurnLock } from './turn-lock.js';

/** Serialises turns within this process only: enough for a single server instance. */
export function createInProcessTurnLock(): ConversationTurnLock {
  const queue = new KeyedSerialQueue();
  let closed = false;
  return {
    run(conversationId, work, options = {}) {
      // An in-process lock cannot be lost: the signal never aborts.
      return runQueuedUnlessAborted(
        queue,
        conversationId,
        () => work(new AbortController().signal),
        options.signal,
      );
    },
    async ready() {
      if (closed) throw new CairnError('STORE_UNAVAILABLE', 'the turn lock is closed');
    },
    // Nothing to release: queued runs finish on their own.
    async close() {
      closed = true;
    },
  };
}
