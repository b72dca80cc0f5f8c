import type { ConversationStore } from '@cairn/core';
import { CairnError } from '@cairn/core';
import type { AgentRuntime } from '@cairn/runtime';
import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { requestId } from 'hono/request-id';
import type { ConversationEventBus } from '../events/conversation-events.js';
import type { ConversationTurnLock } from '../turns/turn-lock.js';
import { apiError } from './api-error.js';
import { bearerAuth } from './bearer-auth.js';
import { withCommonErrorResponses } from './common-error-responses.js';
import { registerConversationRoutes } from './conversation-routes.js';
import { registerEventRoutes } from './event-routes.js';
import { handleErrors, notFoundHandler } from './handle-errors.js';
import { registerHealthRoutes } from './health-routes.js';
import { registerMessageRoutes } from './message-routes.js';
import { requestLog } from './request-log.js';
import type { ServerApp, ServerEnv, ServerLogger } from './server-env.js';
import { TurnRegistry } from './turn-registry.js';
import { registerTurnRoutes } from './turn-routes.js';
import { validationHook } from './validation-hook.js';

export interface ServerAppOptions {
  store: ConversationStore;
  runtime: AgentRuntime;
  events: ConversationEventBus;
  turnLock: ConversationTurnLock;
  /** Bearer token required on every /v1 route; undefined = no auth (only allowed by the caller for loopback --insecure-local). */
  apiToken?: string;
  /** Default 1 MiB; a larger body is answered 413. */
  bodyLimitBytes?: number;
  /** Turns running or queued in this instance at most; default 64, then 429 with `Retry-After`. */
  maxConcurrentTurns?: number;
  /** pino or compatible; gets ids and codes only, never bodies or tokens. */
  logger?: ServerLogger;
}

export interface ServerAppHandle {
  app: ServerApp;
  /** For shutdown: aborts every turn running here (they store their abort) and ends the live event streams. */
  abortAll(reason?: string): void;
  /** Turns running or queued in this instance (wait for 0 before closing the store). */
  activeTurns(): number;
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
  const registry = new TurnRegistry(options.maxConcurrentTurns ?? 64);
  const shutdown = new AbortController();
  const app: ServerApp = new OpenAPIHono<ServerEnv>({ defaultHook: validationHook });

  app.use('*', requestId(), requestLog(logger));
  if (apiToken !== undefined) app.use('/v1/*', bearerAuth(apiToken));
  app.use(
    '/v1/*',
    bodyLimit({
      maxSize: options.bodyLimitBytes ?? 1024 * 1024,
      onError: (c) => apiError(c, 413, 'PAYLOAD_TOO_LARGE', 'request body too large'),
    }),
  );
  app.onError(handleErrors(logger));
  app.notFound(notFoundHandler);

  registerHealthRoutes(app, store, logger);
  registerConversationRoutes(app, store, registry, options.turnLock);
  registerMessageRoutes(app, store);
  registerTurnRoutes(app, { runtime: options.runtime, turnLock: options.turnLock, events, logger }, registry);
  registerEventRoutes(app, { store, events, logger, shutdown: shutdown.signal });

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
      { auth: apiToken !== undefined },
    );
    return c.json(document);
  });

  return {
    app,
    abortAll(reason = 'server shutting down') {
      registry.abortAll(reason);
      shutdown.abort(reason);
    },
    activeTurns: () => registry.size,
  };
}
