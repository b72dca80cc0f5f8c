import type { PrimaryToWorker, WorkerToPrimary } from './cluster-messages.js';
import { PrimaryTurnLocks } from './primary-turn-locks.js';
import type { WorkerChannel } from './worker-channel.js';

/**
 * Workers' channels to a primary simulated by the test, without processes: `onSend` gets what each
 * worker sends, `toWorker` hands a worker a message of the primary (at once: the caller decides when).
 */
export function simulatedChannels(onSend: (workerId: number, message: WorkerToPrimary) => void) {
  const handlers = new Map<number, Set<(message: PrimaryToWorker) => void>>();
  const channel = (workerId: number): WorkerChannel => {
    const own = new Set<(message: PrimaryToWorker) => void>();
    handlers.set(workerId, own);
    return {
      send: (message) => onSend(workerId, message),
      onMessage(handler) {
        own.add(handler);
        return () => own.delete(handler);
      },
      disconnected: new AbortController().signal,
    };
  };
  const toWorker = (workerId: number, message: PrimaryToWorker) => {
    for (const handler of handlers.get(workerId) ?? []) handler(message);
  };
  return { channel, toWorker };
}

/**
 * A cluster's turn locks without processes: a `PrimaryTurnLocks` and a channel per worker, messages
 * delivered asynchronously both ways, like IPC. `sent` lists what the workers sent.
 */
export function simulatedLockCluster() {
  const sent: { workerId: number; message: WorkerToPrimary }[] = [];
  const { channel, toWorker } = simulatedChannels((workerId, message) => {
    sent.push({ workerId, message });
    setImmediate(() => {
      if (message.cairn === 'lock-acquire')
        locks.acquire(message.conversationId, { workerId, request: message.request });
      if (message.cairn === 'lock-release') locks.release(workerId, message.request);
    });
  });
  // What the primary says to a worker in one turn of the loop arrives together, as the IPC outbox
  // batches it: each message handled in turn, with no promise job between them.
  const outboxes = new Map<number, PrimaryToWorker[]>();
  const deliver = (workerId: number, message: PrimaryToWorker) => {
    const queued = outboxes.get(workerId);
    if (queued !== undefined) {
      queued.push(message);
      return;
    }
    outboxes.set(workerId, [message]);
    setImmediate(() => {
      const batch = outboxes.get(workerId) ?? [];
      outboxes.delete(workerId);
      for (const one of batch) toWorker(workerId, one);
    });
  };
  const locks = new PrimaryTurnLocks(
    ({ workerId, request }) => deliver(workerId, { cairn: 'lock-granted', request }),
    ({ workerId, request }) => deliver(workerId, { cairn: 'lock-revoke', request }),
  );
  return { channel, sent };
}
