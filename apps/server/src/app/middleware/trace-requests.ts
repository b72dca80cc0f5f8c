import type { Telemetry } from '@cairn/core';
import type { MiddlewareHandler } from 'hono';
import type { ServerEnv } from '../server-env.js';

// The route that answered: the last one matched that is not a middleware (`*`, any method).
function routeOf(matched: readonly { method: string; path: string }[]): string | undefined {
  for (let index = matched.length - 1; index >= 0; index--) {
    const route = matched[index] as { method: string; path: string };
    if (route.method !== 'ALL' && route.path !== '/*' && route.path !== '*') return route.path;
  }
  return undefined;
}

/**
 * Each request inside a telemetry server span that continues the caller's `traceparent`: the
 * turns it runs (their `invoke_agent`, model and tool calls) are its children.
 */
export function traceRequests(telemetry: Telemetry): MiddlewareHandler<ServerEnv> {
  return (c, next) =>
    telemetry.serverRequest(
      { method: c.req.method, headers: Object.fromEntries(c.req.raw.headers) },
      async (scope) => {
        c.set('telemetry', scope.telemetry);
        await next();
        const route = routeOf(c.req.matchedRoutes);
        scope.end(route === undefined ? { status: c.res.status } : { status: c.res.status, route });
      },
    );
}
