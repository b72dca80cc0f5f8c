import { createRoute, z } from '@hono/zod-openapi';
import { errorResponse } from '../http/api-error.js';
import { bearerAuth } from '../middleware/bearer-auth.js';
import type { RouteDeps } from '../route-deps.js';
import type { ServerApp } from '../server-env.js';

const description =
  'The Prometheus text exposition format (version 0.0.4). With an API token the scrape must send it ' +
  '(`authorization` / `bearer_token_file` in the scrape config); without one the endpoint is open.';

const metricsContent = {
  'text/plain': { schema: z.string().openapi({ description: 'Prometheus metrics' }) },
};

// Two shapes, so that the document says exactly when a token is needed.
const openMetricsRoute = createRoute({
  method: 'get',
  path: '/metrics',
  summary: 'Prometheus metrics',
  description,
  security: [],
  responses: { 200: { description: 'The metrics', content: metricsContent } },
});

const guardedMetricsRoute = createRoute({
  method: 'get',
  path: '/metrics',
  summary: 'Prometheus metrics',
  description,
  responses: {
    200: { description: 'The metrics', content: metricsContent },
    401: errorResponse('Missing or wrong bearer token (`WWW-Authenticate: Bearer`)'),
  },
});

export type MetricsRouteDeps = Pick<RouteDeps, 'metrics' | 'apiToken' | 'metricsPeers'>;

/**
 * `GET /metrics`: outside `/v1` (no rate limit), but behind the API token when the server has one;
 * no route at all when metrics are off.
 */
export function registerMetricsRoutes(app: ServerApp, deps: MetricsRouteDeps): void {
  const { metrics, apiToken, metricsPeers } = deps;
  if (metrics === undefined) return;
  // In a cluster, a scrape reaches one worker: it answers for all of them, as one server.
  metricsPeers?.serve(() => metrics.registry.getMetricsAsJSON());
  const render = async () => {
    if (metricsPeers !== undefined) {
      const { text, contentType } = await metricsPeers.gather();
      return { text, headers: { 'Content-Type': contentType } };
    }
    return {
      text: await metrics.registry.metrics(),
      headers: { 'Content-Type': metrics.registry.contentType },
    };
  };
  if (apiToken === undefined) {
    app.openapi(openMetricsRoute, async (c) => {
      const { text, headers } = await render();
      return c.text(text, 200, headers);
    });
    return;
  }
  app.use('/metrics', bearerAuth(apiToken));
  app.openapi(guardedMetricsRoute, async (c) => {
    const { text, headers } = await render();
    return c.text(text, 200, headers);
  });
}
