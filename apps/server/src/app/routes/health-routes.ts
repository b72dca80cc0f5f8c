import { createRoute, z } from '@hono/zod-openapi';
import { apiError, errorResponse } from '../http/api-error.js';
import { errorFields } from '../http/error-fields.js';
import type { RouteDeps } from '../route-deps.js';
import type { ServerApp } from '../server-env.js';

const StatusSchema = z.object({ status: z.literal('ok') }).openapi('Status');

// A probe must answer in time even when a backend hangs (a half-open connection).
const CHECK_TIMEOUT_MS = 5_000;

const healthRoute = createRoute({
  method: 'get',
  path: '/healthz',
  summary: 'Liveness: the process answers',
  security: [],
  responses: { 200: { description: 'Alive', content: { 'application/json': { schema: StatusSchema } } } },
});

const readyRoute = createRoute({
  method: 'get',
  path: '/readyz',
  summary: 'Readiness: the store, the event bus and the turn lock answer',
  description:
    'The store answers a query, and the event bus and the turn lock have their database connections ' +
    'up (PostgreSQL: the LISTEN connection, and a query on each). A 503 names the parts that are not ' +
    'ready in its message (`not ready: store, events, turnLock`).',
  security: [],
  responses: {
    200: { description: 'Ready', content: { 'application/json': { schema: StatusSchema } } },
    503: errorResponse(
      'The store, the event bus or the turn lock does not answer, or the server is shutting down',
    ),
  },
});

/**
 * `/readyz` checks the store, the event bus and the turn lock. Once `shutdown` is aborted the instance
 * stops being ready, so load balancers send new work elsewhere.
 */
export type HealthRouteDeps = Pick<RouteDeps, 'store' | 'logger' | 'events' | 'turnLock' | 'shutdown'>;

function withTimeout(check: () => Promise<unknown>): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([check(), timeout]).finally(() => clearTimeout(timer));
}

/** `/healthz` and `/readyz`, without authentication (probes carry no token). */
export function registerHealthRoutes(app: ServerApp, deps: HealthRouteDeps): void {
  const { store, logger, events, turnLock, shutdown } = deps;
  const parts: [string, () => Promise<unknown>][] = [
    ['store', () => store.listConversations({ limit: 1 })],
    ['events', async () => events.ready?.()],
    ['turnLock', async () => turnLock.ready?.()],
  ];
  app.openapi(healthRoute, (c) => c.json({ status: 'ok' as const }, 200));
  app.openapi(readyRoute, async (c) => {
    if (shutdown.aborted) return apiError(c, 503, 'SHUTTING_DOWN', 'not ready: shutting down');
    const results = await Promise.allSettled(parts.map(([, check]) => withTimeout(check)));
    const failing = parts.filter((_, index) => results[index]?.status === 'rejected').map(([name]) => name);
    if (failing.length === 0) return c.json({ status: 'ok' as const }, 200);
    results.forEach((result, index) => {
      if (result.status === 'rejected') {
        logger.warn({ part: parts[index]?.[0], ...errorFields(result.reason) }, 'not ready');
      }
    });
    return apiError(c, 503, 'STORE_UNAVAILABLE', `not ready: ${failing.join(', ')}`);
  });
}
