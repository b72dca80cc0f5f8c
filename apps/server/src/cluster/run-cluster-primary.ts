import cluster, { type Worker } from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { CairnError, definedFields } from '@cairn/core';
import { AggregatorRegistry } from 'prom-client';
import type { ServerLogger } from '../app/server-env.js';
import type { RunningStreamKind } from '../app/streams/running-streams.js';
import type { ServerConfig } from '../config/server-config.js';
import {
  isCairnMessage,
  type PrimaryToWorker,
  type WorkerStats,
  type WorkerToPrimary,
} from './cluster-messages.js';
import { IpcOutbox, unbatch } from './ipc-outbox.js';
import { PrimaryEventRelay } from './primary-event-relay.js';
import { PrimaryTurnLocks } from './primary-turn-locks.js';
import { workerShare } from './worker-share.js';

export interface ClusterOptions {
  /** The server's configuration; `config.workers` processes are forked (at least 2 make sense). */
  config: ServerConfig;
  logger: ServerLogger;
  /** Added to this process's environment for the workers (`cluster.fork`). */
  env?: Record<string, string>;
  /**
   * A module (path or `file:` URL) whose `createModel()` export returns (or resolves to) the
   * `ModelAdapter` every worker uses instead of the configured model: the bench's scripted model.
   */
  modelModule?: string;
  /** The first restart delay after a worker crashed; doubled for each crash in a row (at most 30 s). */
  restartDelayMs?: number;
}

export interface ClusterHandle {
  /** `http://host:port`: the port every worker serves. */
  url: string;
  /** The model the workers use (`provider modelId`) and why (as `ResolvedModel.source`). */
  model: string;
  modelFrom: string;
  /** The ids of the running workers (`X-Cairn-Worker` of their answers). */
  workerIds(): number[];
  /**
   * Each running worker's CPU usage since it started and event-loop delay since it started or the last
   * `resetLoopDelay` (which starts a measured window after answering).
   */
  stats(options?: { resetLoopDelay?: boolean }): Promise<WorkerStats[]>;
  /** Drains every worker (see `RunningServer.shutdown`); resolves when all have exited. */
  shutdown(): Promise<{ abortedTurns: number }>;
  /** Aborts every worker's running turns now (a second signal). */
  abortNow(): void;
}

type Listening = Extract<WorkerToPrimary, { cairn: 'listening' }>;

const WORKER_ENTRY = fileURLToPath(new URL('./cluster-worker-entry.js', import.meta.url));
const MAX_RESTART_DELAY_MS = 30_000;
// A worker that ran this long before crashing starts its successor's backoff afresh.
const STABLE_AFTER_MS = 30_000;
const STATS_TIMEOUT_MS = 5_000;

/**
 * `cairn-server --workers N`: forks N workers serving one port (node:cluster) and is what they share.
 * On the fs and SQLite stores the primary relays conversation changes between the workers and keeps
 * the turn locks; on PostgreSQL those go through the database as between servers. It also relays a
 * chat turn's stream to a worker resuming it, restarts a crashed worker, and drains them all on shutdown.
 */
export async function runClusterPrimary(options: ClusterOptions): Promise<ClusterHandle> {
  const { config, logger } = options;
  const count = config.workers;
  const workers = new Map<number, Worker>();
  const outboxes = new Map<number, IpcOutbox<PrimaryToWorker>>();
  const locks = new PrimaryTurnLocks(
    ({ workerId, request }) => send(workerId, { cairn: 'lock-granted', request }),
    ({ workerId, request }) => send(workerId, { cairn: 'lock-revoke', request }),
  );
  const events = new PrimaryEventRelay((workerId, event) => send(workerId, { cairn: 'event', event }));
  // Which workers run turns of a conversation (by kind of stream), and the streams relayed between workers.
  const streamOwners = new Map<string, Set<number>>();
  const streamKey = (kind: RunningStreamKind, conversationId: string) => `${kind}:${conversationId}`;
  const follows = new Map<string, { asker: number; sub: string; owner: number }>();
  // Aborts asked by one worker, waiting for the others' answers.
  const aborts = new Map<
    string,
    { asker: number; request: string; waiting: Set<number>; aborted: boolean }
  >();
  // Metrics gathers in progress: the asker, and the workers' metrics so far.
  const gathers = new Map<
    string,
    { asker: number; request: string; waiting: Set<number>; metrics: unknown[][] }
  >();
  const statsWaiters = new Set<(stats: WorkerStats) => void>();
  const aborted = { turns: 0 };
  let stopping = false;
  // Workers are restarted once the cluster started; a worker failing to start fails the start.
  let running = false;
  let crashesInARow = 0;

  if (config.store === 'postgres') warnAboutConnections(config, logger);
  cluster.setupPrimary({ exec: WORKER_ENTRY, args: [] });

  function send(workerId: number, message: PrimaryToWorker) {
    outboxes.get(workerId)?.send(message);
  }

  function onMessage(worker: Worker, message: WorkerToPrimary) {
    const id = worker.id;
    switch (message.cairn) {
      case 'event':
        events.publish(id, message.event);
        break;
      case 'events-follow':
        events.follow(id, message.conversationId, message.following);
        break;
      case 'lock-acquire':
        locks.acquire(message.conversationId, { workerId: id, request: message.request });
        break;
      case 'lock-release':
        locks.release(id, message.request);
        break;
      case 'stream-running': {
        const stream = streamKey(message.kind, message.conversationId);
        const owners = streamOwners.get(stream) ?? new Set();
        if (message.running) owners.add(id);
        else owners.delete(id);
        if (owners.size === 0) streamOwners.delete(stream);
        else streamOwners.set(stream, owners);
        break;
      }
      case 'stream-follow': {
        const owners = streamOwners.get(streamKey(message.kind, message.conversationId)) ?? [];
        const owner = [...owners].find((other) => other !== id);
        if (owner === undefined) {
          send(id, { cairn: 'stream-end', sub: message.sub, found: false });
          break;
        }
        const key = `${id}:${message.sub}`;
        follows.set(key, { asker: id, sub: message.sub, owner });
        send(owner, { ...message, sub: key });
        break;
      }
      case 'stream-unfollow': {
        const key = `${id}:${message.sub}`;
        const follow = follows.get(key);
        follows.delete(key);
        if (follow !== undefined) send(follow.owner, { cairn: 'stream-unfollow', sub: key });
        break;
      }
      case 'stream-event':
      case 'stream-end': {
        const follow = follows.get(message.sub);
        if (follow === undefined) break;
        if (message.cairn === 'stream-end') follows.delete(message.sub);
        send(follow.asker, { ...message, sub: follow.sub });
        break;
      }
      case 'abort': {
        const key = `${id}:${message.request}`;
        const waiting = new Set([...workers.keys()].filter((other) => other !== id));
        aborts.set(key, { asker: id, request: message.request, waiting, aborted: false });
        for (const other of waiting) send(other, { ...message, request: key });
        answerAbort(key);
        break;
      }
      case 'aborted': {
        const pending = aborts.get(message.request);
        if (pending === undefined) break;
        pending.waiting.delete(id);
        pending.aborted ||= message.aborted;
        answerAbort(message.request);
        break;
      }
      case 'metrics-gather': {
        const key = `${id}:${message.request}`;
        const waiting = new Set(workers.keys());
        gathers.set(key, { asker: id, request: message.request, waiting, metrics: [] });
        for (const other of waiting) send(other, { cairn: 'metrics', request: key });
        break;
      }
      case 'metrics': {
        const gather = gathers.get(message.request);
        if (gather === undefined) break;
        gather.waiting.delete(id);
        gather.metrics.push(message.metrics);
        void answerGather(message.request);
        break;
      }
      case 'stats':
        for (const waiter of statsWaiters) waiter(message.stats);
        break;
      case 'stopped':
        aborted.turns += message.abortedTurns;
        break;
    }
  }

  /** Answers an abort once every other worker has (a worker that died answers nothing: not aborted). */
  function answerAbort(key: string) {
    const pending = aborts.get(key);
    if (pending === undefined || pending.waiting.size > 0) return;
    aborts.delete(key);
    send(pending.asker, { cairn: 'aborted', request: pending.request, aborted: pending.aborted });
  }

  /** Sums the workers' metrics once all have answered (a worker that died counts no more). */
  async function answerGather(key: string) {
    const gather = gathers.get(key);
    if (gather === undefined || gather.waiting.size > 0) return;
    gathers.delete(key);
    const summed = AggregatorRegistry.aggregate(gather.metrics);
    const text = await summed.metrics();
    send(gather.asker, {
      cairn: 'metrics-gathered',
      request: gather.request,
      text,
      contentType: summed.contentType,
    });
  }

  /** A worker is gone: its locks pass on, streams followed from it end, streams it followed stop. */
  function forget(workerId: number) {
    workers.delete(workerId);
    outboxes.delete(workerId);
    locks.releaseWorker(workerId);
    events.releaseWorker(workerId);
    for (const [stream, owners] of streamOwners) {
      owners.delete(workerId);
      if (owners.size === 0) streamOwners.delete(stream);
    }
    for (const [key, gather] of gathers) {
      gather.waiting.delete(workerId);
      if (gather.asker === workerId) gathers.delete(key);
      else void answerGather(key);
    }
    for (const [key, pending] of aborts) {
      pending.waiting.delete(workerId);
      if (pending.asker === workerId) aborts.delete(key);
      else answerAbort(key);
    }
    for (const [key, follow] of follows) {
      if (follow.owner === workerId)
        send(follow.asker, { cairn: 'stream-end', sub: follow.sub, found: true });
      if (follow.asker === workerId) send(follow.owner, { cairn: 'stream-unfollow', sub: key });
      if (follow.owner === workerId || follow.asker === workerId) follows.delete(key);
    }
  }

  function fork(): { worker: Worker; listening: Promise<Listening> } {
    const worker = cluster.fork(options.env);
    // A send to a worker that just died fails (EPIPE); its exit is handled below.
    worker.on('error', () => {});
    const startedAt = Date.now();
    workers.set(worker.id, worker);
    outboxes.set(
      worker.id,
      new IpcOutbox((message) => {
        if (worker.isConnected()) worker.send(message);
      }),
    );
    const listening = new Promise<Listening>((resolve, reject) => {
      const receive = (message: unknown) => {
        if (!isCairnMessage<WorkerToPrimary>(message)) return;
        // Messages sent before the worker's code listens are lost: it says hello when it does.
        if (message.cairn === 'hello') {
          send(worker.id, {
            cairn: 'start',
            config: workerShare(config),
            ...definedFields({ modelModule: options.modelModule }),
          });
        } else if (message.cairn === 'listening') resolve(message);
        else if (message.cairn === 'failed') {
          const { code, message: text, details } = message.error;
          reject(new CairnError(code, text, definedFields({ details })));
        } else onMessage(worker, message);
      };
      worker.on('message', (message: unknown) => {
        for (const one of unbatch(message)) receive(one);
      });
      worker.once('exit', (code, signal) => {
        forget(worker.id);
        reject(
          new CairnError('STORE_UNAVAILABLE', `cluster worker exited while starting (${signal ?? code})`),
        );
        if (stopping || !running) return;
        crashesInARow = Date.now() - startedAt > STABLE_AFTER_MS ? 1 : crashesInARow + 1;
        const delayMs = Math.min(
          MAX_RESTART_DELAY_MS,
          (options.restartDelayMs ?? 500) * 2 ** (crashesInARow - 1),
        );
        logger.error(
          { workerId: worker.id, pid: worker.process.pid, code, signal, restartInMs: delayMs },
          'cluster worker died: its turn locks are released, restarting it',
        );
        setTimeout(() => {
          if (stopping) return;
          const next = fork();
          next.listening.then(
            () => logger.info({ workerId: next.worker.id }, 'cluster worker restarted'),
            () => {}, // its exit is logged (and retried) like any other
          );
        }, delayMs).unref();
      });
    });
    return { worker, listening };
  }

  function stopAll(message: PrimaryToWorker): Promise<void> {
    stopping = true;
    const exits = [...workers.values()].map(
      (worker) =>
        new Promise<void>((resolve) => (worker.isDead() ? resolve() : worker.once('exit', () => resolve()))),
    );
    for (const id of workers.keys()) send(id, message);
    return Promise.all(exits).then(() => {});
  }

  const started = Array.from({ length: count }, () => fork());
  let first: Listening;
  try {
    [first] = (await Promise.all(started.map((worker) => worker.listening))) as [Listening];
  } catch (error) {
    // One worker failed to start (the store, the model, the port): the others stop, the error stands.
    for (const id of workers.keys()) send(id, { cairn: 'abort-now' });
    await stopAll({ cairn: 'shutdown' });
    throw error;
  }
  running = true;

  return {
    url: first.url,
    model: first.model,
    modelFrom: first.modelFrom,
    workerIds: () => [...workers.keys()],
    stats(options = {}) {
      const expected = workers.size;
      const collected: WorkerStats[] = [];
      return new Promise((resolve) => {
        const done = () => {
          statsWaiters.delete(waiter);
          clearTimeout(timer);
          resolve(collected.sort((a, b) => a.workerId - b.workerId));
        };
        const waiter = (stats: WorkerStats) => {
          collected.push(stats);
          if (collected.length === expected) done();
        };
        // A worker that is restarting does not answer: the others' stats still come back.
        const timer = setTimeout(done, STATS_TIMEOUT_MS);
        statsWaiters.add(waiter);
        for (const id of workers.keys()) send(id, { cairn: 'stats', ...options });
      });
    },
    async shutdown() {
      await stopAll({ cairn: 'shutdown' });
      return { abortedTurns: aborted.turns };
    },
    abortNow() {
      for (const id of workers.keys()) send(id, { cairn: 'abort-now' });
    },
  };
}

// Each worker opens the store's pool and the bus's and lock waiter's connections; the lock
// connections are shared out. PostgreSQL refuses connections past `max_connections` (default 100).
const STORE_POOL = 10;
const BUS_AND_WAITER = 4;
const DEFAULT_MAX_CONNECTIONS = 100;

function warnAboutConnections(config: ServerConfig, logger: ServerLogger): void {
  const connections = config.lockConnections + (STORE_POOL + BUS_AND_WAITER) * config.workers;
  if (connections <= DEFAULT_MAX_CONNECTIONS) return;
  logger.warn(
    { workers: config.workers, connections },
    `${config.workers} workers open up to ${connections} PostgreSQL connections: raise max_connections (default 100) or pass --workers`,
  );
}
