import { CairnError } from '@cairn/core';
import { turnAbortedError } from '../turn-lock/turn-aborted-error.js';
import type { ConversationTurnLock } from '../turn-lock/turn-lock.js';
import type { WorkerChannel } from './worker-channel.js';

/**
 * The turn lock of a cluster worker on the fs or SQLite store: the primary grants each conversation to
 * one turn at a time, across all workers, in the order asked. The lock is lost only when the primary is
 * gone (then nobody serialises the workers any more), and a worker's own death releases its locks.
 */
export function createIpcTurnLock(channel: WorkerChannel): ConversationTurnLock {
  let nextRequest = 1;
  const granted = new Map<number, () => void>();
  let closed = false;
  channel.onMessage((message) => {
    if (message.cairn === 'lock-granted') granted.get(message.request)?.();
  });
  const gone = () =>
    new CairnError('STORE_UNAVAILABLE', 'the cluster primary is gone: turn locks are unavailable');
  return {
    async run(conversationId, work, options = {}) {
      if (closed) throw new CairnError('STORE_UNAVAILABLE', 'the turn lock is closed');
      if (channel.disconnected.aborted) throw gone();
      const request = nextRequest++;
      const { signal } = options;
      const { disconnected } = channel;
      let onAbort = () => {};
      let onGone = () => {};
      try {
        await new Promise<void>((resolve, reject) => {
          onAbort = () => reject(turnAbortedError(conversationId, signal?.reason));
          onGone = () => reject(gone());
          granted.set(request, resolve);
          signal?.addEventListener('abort', onAbort, { once: true });
          disconnected.addEventListener('abort', onGone, { once: true });
          channel.send({ cairn: 'lock-acquire', request, conversationId });
          if (signal?.aborted) onAbort();
        });
      } catch (error) {
        // Withdrawn from the queue (or released, had the grant crossed the abort on the way).
        channel.send({ cairn: 'lock-release', request });
        throw error;
      } finally {
        granted.delete(request);
        signal?.removeEventListener('abort', onAbort);
        disconnected.removeEventListener('abort', onGone);
      }
      try {
        return await work(disconnected);
      } finally {
        channel.send({ cairn: 'lock-release', request });
      }
    },
    async ready() {
      if (closed) throw new CairnError('STORE_UNAVAILABLE', 'the turn lock is closed');
      if (channel.disconnected.aborted) throw gone();
    },
    async close() {
      closed = true;
    },
  };
}
