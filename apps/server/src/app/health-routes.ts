import type { ConversationStore } from '@cairn/core';
import { createRoute, z } from '@hono/zod-openapi';
import { apiError, errorResponse } from './api-error.js';
import { errorFields } from './error-fields.js';
import type { ServerApp, ServerLogger } from './server-env.js';

const StatusSchema = z.object({ status: z.literal('ok') }).openapi('Status');

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
  summary: 'Readiness: the store answers a query',
  security: [],
  responses: {
    200: { description: 'Ready', content: { 'application/json': { schema: StatusSchema } } },
    503: errorResponse('The store does not answer'),
  },
});

/** `/healthz` and `/readyz`, without authentication (probes carry no token). */
export function registerHealthRoutes(app: ServerApp, store: ConversationStore, logger: ServerLogger): void {
  app.openapi(healthRoute, (c) => c.json({ status: 'ok' as const }, 200));
  app.openapi(readyRoute, async (c) => {
    try {
      await store.listConversations({ limit: 1 });
      return c.json({ status: 'ok' as const }, 200);
    } catch (error) {
      logger.warn(errorFields(error), 'store not ready');
      return apiError(c, 503, 'STORE_UNAVAILABLE', 'store unavailable');
    }
  });
}
