import { setMaxListeners } from 'node:events';
import { isCairnMessage, type PrimaryToWorker, type WorkerToPrimary } from './cluster-messages.js';

/** A worker's side of the IPC channel to the primary. */
export interface WorkerChannel {
  send(message: WorkerToPrimary): void;
  /** Calls `handler` for each message of the primary; returns the unsubscribe. */
  onMessage(handler: (message: PrimaryToWorker) => void): () => void;
  /** Aborts when the channel to the primary is gone (the primary died): the worker is on its own. */
  disconnected: AbortSignal;
}

/** The channel of this process, a worker forked by the cluster's primary. */
export function processWorkerChannel(): WorkerChannel {
  const disconnected = new AbortController();
  // Every turn waiting for its lock listens: hundreds are normal, not a leak.
  setMaxListeners(0, disconnected.signal);
  process.once('disconnect', () => disconnected.abort(new Error('the cluster primary is gone')));
  return {
    send(message) {
      // After a disconnect nothing can be sent: the worker is shutting down on its own then.
      if (process.connected) process.send?.(message);
    },
    onMessage(handler) {
      const listener = (message: unknown) => {
        if (isCairnMessage<PrimaryToWorker>(message)) handler(message);
      };
      process.on('message', listener);
      return () => process.off('message', listener);
    },
    disconnected: disconnected.signal,
  };
}
