import type { PrimaryToWorker, WorkerToPrimary } from './cluster-messages.js';
import { PrimaryTurnLocks } from './primary-turn-locks.js';
import type { WorkerChannel } from './worker-channel.js';

/**
 * A cluster's turn locks without processes: a `PrimaryTurnLocks` and a channel per worker, each
 * message delivered asynchronously both ways, like IPC. `sent` lists what the workers sent.
 */
export function simulatedLockCluster() {
  const workers = new Map<number, Set<(message: PrimaryToWorker) => void>>();
  const sent: { workerId: number; message: WorkerToPrimary }[] = [];
  const deliver = (workerId: number, message: PrimaryToWorker) =>
    setImmediate(() => {
      for (const handler of workers.get(workerId) ?? []) handler(message);
    });
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
  return { locks, channel, sent };
}
