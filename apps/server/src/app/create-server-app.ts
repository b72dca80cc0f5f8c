import { setMaxListeners } from 'node:events';
import type { ConversationStore, ModelAdapter, Telemetry } from '@cairn/core';
import { CairnError, definedFields } from '@cairn/core';
import type { AgentRuntime, WorkflowPackage } from '@cairn/runtime';
import { OpenAPIHono } from '@hono/zod-openapi';
import { requestId } from 'hono/request-id';
import type { ConversationEventBus } from '../events/conversation-events.js';
import type { ConversationTurnLock } from '../turn-lock/turn-lock.js';
import type { AgentSessionsOptions } from './agent-sessions/agent-session-options.js';
import { type AttachmentLimits, DEFAULT_ATTACHMENT_LIMITS } from './attachments/message-content.js';
import { apiError } from './http/api-error.js';
import { withCommonErrorResponses } from './http/common-error-responses.js';
import { bearerAuth } from './middleware/bearer-auth.js';
import { bodyLimit } from './middleware/body-limit.js';
import { type CorsOptions, corsMiddleware } from './middleware/cors-options.js';
import { handleErrors, notFoundHandler } from './middleware/handle-errors.js';
import { DEFAULT_RATE_LIMIT, type RateLimitOptions, rateLimit } from './middleware/rate-limit.js';
import { refuseWhileDraining } from './middleware/refuse-while-draining.js';
import { requestLog } from './middleware/request-log.js';
import { traceRequests } from './middleware/trace-requests.js';
import { validationHook } from './middleware/validation-hook.js';
import type { MetricsPeers, RouteDeps, TurnPeers } from './route-deps.js';
import { registerAgentSessionRoutes } from './routes/agent-session-routes.js';
import { registerApprovalRoutes } from './routes/approval-routes.js';
import { registerAttachmentRoutes } from './routes/attachment-routes.js';
import { registerChatRoutes } from './routes/chat-routes.js';
import { registerConversationRoutes } from './routes/conversation-routes.js';
import { registerEventRoutes } from './routes/event-routes.js';
import { registerHealthRoutes } from './routes/health-routes.js';
import { registerMessageRoutes } from './routes/message-routes.js';
import { registerMetricsRoutes } from './routes/metrics-routes.js';
import { registerModelRoutes } from './routes/model-routes.js';
import { registerRunRoutes } from './routes/run-routes.js';
import { registerTurnRoutes } from './routes/turn-routes.js';
import { registerWebRoutes } from './routes/web-routes.js';
import type { ServerApp, ServerEnv, ServerLogger } from './server-env.js';
import { createServerMetrics } from './server-metrics.js';
import { RunningStreams, type StreamPeersFactory } from './streams/running-streams.js';
import type { SseStreamLimits } from './streams/sse-writer.js';
import { TurnRegistry } from './turns/turn-registry.js';
import type { TurnStreamEvent } from './turns/turn-stream-events.js';

export interface ServerAppOptions {
  store: ConversationStore;
  runtime: AgentRuntime;
  /**
   * The models a turn may pick by id (`GET /v1/models`, `model` on a turn): the runtime's own first (the
   * default), then the others. Absent: the server offers no choice.
   */
  models?: readonly ModelAdapter[];
  events: ConversationEventBus;
  turnLock: ConversationTurnLock;
  /** Bearer token required on every /v1 route; undefined = no auth (only allowed by the caller for loopback --insecure-local). */
  apiToken?: string;
  /** Default 1 MiB; a larger body is answered 413. */
  bodyLimitBytes?: number;
  /**
   * Largest total of one message's attachments, in bytes: default 20 MiB, then 413. A message post
   * may be this much larger than `bodyLimitBytes` (a third more for base64 in JSON).
   */
  attachmentLimitBytes?: number;
  /** Media types an attachment may have; default `ATTACHMENT_MEDIA_TYPES` of `@cairn/core`, else 415. */
  attachmentMediaTypes?: readonly string[];
  /** Turns running or queued in this instance at most; default 64, then 429 with `Retry-After`. */
  maxConcurrentTurns?: number;
  /** pino or compatible; gets ids and codes only, never bodies or tokens. */
  logger?: ServerLogger;
  /** When an event-stream client that does not read is disconnected: default 4 MiB waiting, or 30 s stalled. */
  streamLimits?: SseStreamLimits;
  /**
   * What `GET /v1/workflows` lists: the workflow packages the runtime was created with (the runtime
   * does not list them). Runs resolve workflow names with the runtime whatever is given here.
   */
  workflows?: readonly WorkflowPackage[];
  /** Agent sessions (Claude Code / Gemini CLI in the workspace root): off when absent, since they run code. */
  agentSessions?: AgentSessionsOptions;
  /**
   * Per caller (its token's hash, or its address without a token) on /v1: default 20 requests a
   * second with bursts of 40, then 429 `RATE_LIMITED` with `Retry-After`; `false` = no limit.
   */
  rateLimit?: RateLimitOptions | false;
  /** Browser origins allowed to call the API; absent = no CORS headers at all. */
  cors?: CorsOptions;
  /** `GET /metrics` (Prometheus, behind the token when there is one); default on, `false` = none. */
  metrics?: boolean;
  /** The built web page (`dist/web`) to serve at `/`, without auth; absent = no page. */
  webRoot?: string;
  /**
   * Traces each request (`createOtelTelemetry` of `@cairn/otel`), continuing an incoming
   * `traceparent`; give the runtime the same telemetry so its turns are the requests' children.
   */
  telemetry?: Telemetry;
  /**
   * The other workers of a cluster (`cairn-server --workers N`): `GET /v1/chat/{id}/stream` and
   * `GET /v1/conversations/{id}/turn` follow a turn that another worker runs. Absent: this process only.
   */
  streamPeers?: StreamPeersFactory;
  /** The other workers of a cluster: `POST /v1/conversations/{id}/abort` aborts the turn wherever it runs. */
  turnPeers?: TurnPeers;
  /** The workers of a cluster: `GET /metrics` answers for all of them. */
  metricsPeers?: MetricsPeers;
}

export interface ServerAppHandle {
  app: ServerApp;
  /** For shutdown: aborts every turn running here (they store their abort) and ends the live event streams. */
  abortAll(reason?: string): void;
  /** Turns running or queued in this instance (wait for 0 before closing the store). */
  activeTurns(): number;
  /**
   * The start of a graceful shutdown: live event streams end (clients resume elsewhere with
   * `Last-Event-ID`), new turns and writes get 503 `SHUTTING_DOWN`, running turns go on.
   */
  beginShutdown(reason?: string): void;
}

const silentLogger: ServerLogger = { info() {}, warn() {}, error() {} };

/** The Cairn HTTP API: conversations, chat turns as JSON or server-sent events, live message feeds. */
export function createServerApp(options: ServerAppOptions): ServerAppHandle {
  const { store, events, apiToken } = options;
  // An empty or spaced token would make every request a 401 (or accept a guessable one): refuse it now.
  if (apiToken !== undefined && (apiToken.length < 16 || /\s/.test(apiToken))) {
    throw new CairnError('INVALID_ARGUMENT', 'apiToken must be at least 16 characters, without spaces');
  }
  const logger = options.logger ?? silentLogger;
  const metrics =
    options.metrics === false ? undefined : createServerMetrics({ activeTurns: (): number => registry.size });
  const registry = new TurnRegistry(options.maxConcurrentTurns ?? 64, metrics);
  const shutdown = new AbortController();
  // Every live /events stream listens for shutdown: thousands are normal, not a leak.
  setMaxListeners(0, shutdown.signal);
  const app: ServerApp = new OpenAPIHono<ServerEnv>({ defaultHook: validationHook });

  // The request's span first: everything after runs inside it. Metrics next, to count every
  // answer; CORS next, so that browsers can read every answer.
  if (options.telemetry) app.use('*', traceRequests(options.telemetry));
  if (metrics) app.use('*', metrics.middleware);
  if (options.cors) app.use('*', corsMiddleware(options.cors));
  app.use('*', requestId(), requestLog(logger), refuseWhileDraining(shutdown.signal));
  if (apiToken !== undefined) app.use('/v1/*', bearerAuth(apiToken));
  if (options.rateLimit !== false) {
    const limit = options.rateLimit ?? DEFAULT_RATE_LIMIT;
    app.use('/v1/*', rateLimit(limit, { keyByToken: apiToken !== undefined }));
  }
  const attachments: AttachmentLimits = {
    maxBytes: options.attachmentLimitBytes ?? DEFAULT_ATTACHMENT_LIMITS.maxBytes,
    mediaTypes: options.attachmentMediaTypes ?? DEFAULT_ATTACHMENT_LIMITS.mediaTypes,
  };
  const bodyLimitBytes = options.bodyLimitBytes ?? 1024 * 1024;
  const tooLarge = bodyLimit({
    maxSize: bodyLimitBytes,
    onError: (c) => apiError(c, 413, 'PAYLOAD_TOO_LARGE', 'request body too large'),
  });
  // A message may carry attachments: their limit on top, with room for base64 (4 bytes per 3).
  const messageTooLarge = bodyLimit({
    maxSize: bodyLimitBytes + Math.ceil((attachments.maxBytes * 4) / 3),
    onError: (c) =>
      apiError(
        c,
        413,
        'PAYLOAD_TOO_LARGE',
        `request body too large (attachments: ${attachments.maxBytes} bytes at most)`,
      ),
  });
  app.use('/v1/*', (c, next) =>
    c.req.method === 'POST' && /^\/v1\/conversations\/[^/]+\/messages$/.test(c.req.path)
      ? messageTooLarge(c, next)
      : tooLarge(c, next),
  );
  app.onError(handleErrors(logger));
  app.notFound(notFoundHandler);

  const deps: RouteDeps = {
    store,
    runtime: options.runtime,
    events,
    turnLock: options.turnLock,
    logger,
    registry,
    models: options.models ?? [],
    runningTurns: new RunningStreams<TurnStreamEvent>(options.streamPeers?.('turn')),
    shutdown: shutdown.signal,
    attachments,
    // Optional fields are left out when absent, never set to undefined.
    ...definedFields({
      streamLimits: options.streamLimits,
      workflows: options.workflows,
      agentSessions: options.agentSessions,
      telemetry: options.telemetry,
      metrics,
      apiToken,
      webRoot: options.webRoot,
      streamPeers: options.streamPeers,
      turnPeers: options.turnPeers,
      metricsPeers: options.metricsPeers,
    }),
  };
  registerHealthRoutes(app, deps);
  registerModelRoutes(app, deps);
  registerConversationRoutes(app, deps);
  registerMessageRoutes(app, deps);
  registerTurnRoutes(app, deps);
  registerApprovalRoutes(app, deps);
  registerChatRoutes(app, deps);
  registerAttachmentRoutes(app, deps);
  registerRunRoutes(app, deps);
  registerAgentSessionRoutes(app, deps);
  registerEventRoutes(app, deps);
  registerMetricsRoutes(app, deps);
  registerWebRoutes(app, deps);

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
  // Made once, on first request: the routes do not change after this point.
  let document: ReturnType<ServerApp['getOpenAPI31Document']> | undefined;
  app.get('/openapi.json', (c) => {
    document ??= withCommonErrorResponses(
      app.getOpenAPI31Document({
        openapi: '3.1.0',
        info: { title: 'Cairn server', version: '1' },
        ...(apiToken === undefined ? {} : { security: [{ bearer: [] }] }),
      }),
      { auth: apiToken !== undefined, rateLimited: options.rateLimit !== false },
    );
    return c.json(document);
  });

  return {
    app,
    abortAll(reason = 'server shutting down') {
      registry.abortAll(reason);
      if (!shutdown.signal.aborted) shutdown.abort(reason);
    },
    activeTurns: () => registry.size,
    beginShutdown(reason = 'server shutting down') {
      shutdown.abort(reason);
    },
  };
}
