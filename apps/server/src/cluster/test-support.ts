import type { PrimaryToWorker, WorkerToPrimary } from './cluster-messages.js';
import { PrimaryTurnLocks } from './primary-turn-locks.js';
import type { WorkerChannel } from './worker-channel.js';

/**
 * A cluster's turn locks without processes: a `PrimaryTurnLocks` and a channel per worker, messages
 * delivered asynchronously both ways, like IPC. `sent` lists what the workers sent.
 */
export function simulatedLockCluster() {
  const workers = new Map<number, Set<(message: PrimaryToWorker) => void>>();
  const sent: { workerId: number; message: WorkerToPrimary }[] = [];
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
      for (const one of batch) for (const handler of workers.get(workerId) ?? []) handler(one);
    });
  };
  const locks = new PrimaryTurnLocks(
    ({ workerId, request }) => deliver(workerId, { cairn: 'lock-granted', request }),
    ({ workerId, request }) => deliver(workerId, { cairn: 'lock-revoke', request }),
  );
  const channel = (workerId: number): WorkerChannel => {
    const handlers = new Set<(message: PrimaryToWorker) => void>();
    workers.set(workerId, handlers);
    return {
      send: (message: WorkerToPrimary) => {
        sent.push({ workerId, message });
        setImmediate(() => {
          if (message.cairn === 'lock-acquire')
            locks.acquire(message.conversationId, { workerId, request: message.request });
          if (message.cairn === 'lock-release') locks.release(workerId, message.request);
        });
      },
      onMessage(handler) {
        handlers.add(handler);
        return () => handlers.delete(handler);
      },
      disconnected: new AbortController().signal,
    };
  };
  return { channel, sent };
}
