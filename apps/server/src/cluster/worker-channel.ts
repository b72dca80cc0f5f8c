import { setMaxListeners } from 'node:events';
import { isCairnMessage, type PrimaryToWorker, type WorkerToPrimary } from './cluster-messages.js';
import { IpcOutbox, unbatch } from './ipc-outbox.js';

/** A worker's side of the IPC channel to the primary. */
export interface WorkerChannel {
  send(message: WorkerToPrimary): void;
  /** Calls `handler` for each message of the primary; returns the unsubscribe. */
  onMessage(handler: (message: PrimaryToWorker) => void): () => void;
  /** Aborts when the channel to the primary is gone (the primary died): the worker is on its own. */
  disconnected: AbortSignal;
}

/** This process's channel: what was sent goes out together at the end of the loop's turn, or at `flush()`. */
export interface ProcessWorkerChannel extends WorkerChannel {
  flush(): void;
}

/** The channel of this process, a worker forked by the cluster's primary. */
export function processWorkerChannel(): ProcessWorkerChannel {
  const disconnected = new AbortController();
  // Every turn waiting for its lock listens: hundreds are normal, not a leak.
  setMaxListeners(0, disconnected.signal);
  process.once('disconnect', () => disconnected.abort(new Error('the cluster primary is gone')));
  const outbox = new IpcOutbox<WorkerToPrimary>((message) => {
    // After a disconnect nothing can be sent: the worker is shutting down on its own then.
    if (process.connected) process.send?.(message);
  });
  return {
    send: (message) => outbox.send(message),
    flush: () => outbox.flush(),
    onMessage(handler) {
      const listener = (message: unknown) => {
        for (const one of unbatch(message)) {
          if (isCairnMessage<PrimaryToWorker>(one)) handler(one);
        }
      };
      process.on('message', listener);
      return () => process.off('message', listener);
    },
    disconnected: disconnected.signal,
  };
}
