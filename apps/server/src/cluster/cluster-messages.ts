import type { CairnErrorJSON } from '@cairn/core';
import type { RunningStreamKind } from '../app/streams/running-streams.js';
import type { ServerConfig } from '../config/server-config.js';
import type { ConversationChanged } from '../events/conversation-events.js';

/**
 * What the primary passes on between workers, the same both ways: conversation changes, a running
 * turn's stream followed on another worker, and aborts of a conversation's turns wherever they run.
 */
type Relayed =
  | { cairn: 'event'; event: ConversationChanged }
  | { cairn: 'stream-follow'; kind: RunningStreamKind; sub: string; conversationId: string }
  | { cairn: 'stream-unfollow'; sub: string }
  /** An event of a followed stream: a UI message chunk or a turn event, as JSON. */
  | { cairn: 'stream-event'; sub: string; event: unknown }
  | { cairn: 'stream-end'; sub: string; found: boolean }
  | { cairn: 'abort'; request: string; conversationId: string; reason: string; queued: boolean }
  | { cairn: 'aborted'; request: string; aborted: boolean };

/**
 * What the primary and its workers say to each other over the cluster's IPC channel. Every message
 * has a `cairn` tag, so a message of anyone else (Node's own cluster messages are internal) is ignored.
 */
export type PrimaryToWorker =
  | Relayed
  | { cairn: 'start'; config: ServerConfig; modelModule?: string }
  | { cairn: 'lock-granted'; request: number }
  /** Another worker waits for the lock of `request`: give it back once no turn of this worker uses it. */
  | { cairn: 'lock-revoke'; request: number }
  /** Asks a worker for its metrics (`registry.getMetricsAsJSON()`), or answers a gather. */
  | { cairn: 'metrics'; request: string }
  | { cairn: 'metrics-gathered'; request: string; text: string; contentType: string }
  /** `resetLoopDelay`: the event-loop histogram starts afresh after answering (a measured window). */
  | { cairn: 'stats'; resetLoopDelay?: boolean }
  | { cairn: 'shutdown' }
  | { cairn: 'abort-now' };

export type WorkerToPrimary =
  | Relayed
  /** The worker's code is loaded and listens to the channel: now it may be told what to serve. */
  | { cairn: 'hello' }
  | { cairn: 'listening'; url: string; model: string; modelFrom: string }
  /** The worker could not start (the store, the model, the port): the primary gives up with this. */
  | { cairn: 'failed'; error: CairnErrorJSON }
  | { cairn: 'lock-acquire'; request: number; conversationId: string }
  | { cairn: 'lock-release'; request: number }
  /** The worker's first listener of the conversation's changes came (`following`), or its last went. */
  | { cairn: 'events-follow'; conversationId: string; following: boolean }
  | { cairn: 'stream-running'; kind: RunningStreamKind; conversationId: string; running: boolean }
  /** Asks for every worker's metrics, summed; or answers `metrics` with this worker's. */
  | { cairn: 'metrics-gather'; request: string }
  | { cairn: 'metrics'; request: string; metrics: unknown[] }
  | { cairn: 'stats'; stats: WorkerStats }
  | { cairn: 'stopped'; abortedTurns: number };

/** One worker's load, for `ClusterHandle.stats()` (the bench reads it). */
export interface WorkerStats {
  workerId: number;
  pid: number;
  /** `process.cpuUsage()` since the worker started, in microseconds. */
  cpuUserMicros: number;
  cpuSystemMicros: number;
  /** Event-loop delay since the worker started or the last reset (`monitorEventLoopDelay`), in milliseconds. */
  eventLoopDelayMs: { mean: number; p50: number; p99: number; max: number };
  /** Turns running or queued in the worker. */
  activeTurns: number;
}

export function isCairnMessage<T extends { cairn: string }>(message: unknown): message is T {
  return typeof message === 'object' && message !== null && typeof (message as T).cairn === 'string';
}
