import type { ConversationStore, ModelAdapter, Telemetry } from '@cairn/core';
import type { AgentRuntime, WorkflowPackage } from '@cairn/runtime';
import type { ConversationEventBus } from '../events/conversation-events.js';
import type { ConversationTurnLock } from '../turn-lock/turn-lock.js';
import type { AgentSessionsOptions } from './agent-sessions/agent-session-options.js';
import type { AttachmentLimits } from './attachments/message-content.js';
import type { ServerLogger } from './server-env.js';
import type { ServerMetrics } from './server-metrics.js';
import type { RunningStreams, StreamPeersFactory } from './streams/running-streams.js';
import type { SseStreamLimits } from './streams/sse-writer.js';
import type { TurnRegistry } from './turns/turn-registry.js';
import type { TurnStreamEvent } from './turns/turn-stream-events.js';

/**
 * What the routes are made with, built once by `createServerApp`: every `register*Routes(app, deps)`
 * takes this object and declares with `Pick` the part it reads.
 */
export interface RouteDeps {
  store: ConversationStore;
  runtime: AgentRuntime;
  events: ConversationEventBus;
  turnLock: ConversationTurnLock;
  logger: ServerLogger;
  /** What a posted message's attachments may be. */
  attachments: AttachmentLimits;
  /** The turns running or queued in this instance, under its cap. */
  registry: TurnRegistry;
  /** The models a turn may pick by id (`GET /v1/models`); the first is the runtime's default. Empty: no choice. */
  models: readonly ModelAdapter[];
  /** Every conversation turn's events while it runs (`GET /v1/conversations/{id}/turn` follows them). */
  runningTurns: RunningStreams<TurnStreamEvent>;
  /** Aborted once shutdown began: live streams end, `/readyz` fails, running turns go on. */
  shutdown: AbortSignal;
  /** When an event-stream client that does not read is disconnected. */
  streamLimits?: SseStreamLimits;
  /** What `GET /v1/workflows` lists: the packages the runtime was created with. */
  workflows?: readonly WorkflowPackage[];
  /** Absent: every agent-session route answers 404 saying how to enable them. */
  agentSessions?: AgentSessionsOptions;
  /** Traces agent sessions' runs (their CLI gets `TRACEPARENT`). */
  telemetry?: Telemetry;
  /** Absent: no `GET /metrics`. */
  metrics?: ServerMetrics;
  /** Bearer token of the API, when there is one (`/metrics` sits behind it too). */
  apiToken?: string;
  /** The built web page (`dist/web`, with `index.html` and `assets/`); absent: no page. */
  webRoot?: string;
  /** The other workers of a cluster, for following a running turn; absent for a single process. */
  streamPeers?: StreamPeersFactory;
  /** The other workers of a cluster, for aborting turns; absent for a single process. */
  turnPeers?: TurnPeers;
  /** The workers of a cluster, for `/metrics` of the whole server; absent for a single process. */
  metricsPeers?: MetricsPeers;
}

/** The workers of a cluster, as `/metrics` sees them. */
export interface MetricsPeers {
  /** How this worker gives its metrics (`registry.getMetricsAsJSON()`) when the cluster gathers them. */
  serve(collect: () => Promise<unknown[]>): void;
  /** Every worker's metrics, summed (counters, histograms, gauges such as open streams) as one server's. */
  gather(): Promise<{ text: string; contentType: string }>;
}

/** The other workers of a cluster (`cairn-server --workers N`), as the turn routes see them. */
export interface TurnPeers {
  /**
   * How this process aborts its turns of a conversation when a peer asks (true: some were running):
   * the running one, and with `queued` those waiting behind it too.
   */
  serve(abort: (conversationId: string, reason: string, queued: boolean) => boolean): void;
  /** Aborts the conversation's turns in every other worker (see `serve`); true when any was running there. */
  abort(conversationId: string, reason: string, queued: boolean): Promise<boolean>;
}
