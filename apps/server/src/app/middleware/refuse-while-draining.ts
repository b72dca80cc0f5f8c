import type { MiddlewareHandler } from 'hono';
import { apiError } from '../http/api-error.js';
import type { ServerEnv } from '../server-env.js';

// Aborting stays possible while draining: clients may stop the turns that are still running.
const ABORT_ROUTE = /^\/v1\/(conversations|runs|agent-sessions)\/[^/]+\/abort$/;

/**
 * Once shutdown began: every answer says `Connection: close`, so keep-alive clients move on, and
 * writes (new turns, deletes) get 503 with `Retry-After` — another instance, or this one restarted,
 * will take them. Reads and aborts still work, so clients can follow and stop the running turns.
 */
export function refuseWhileDraining(shutdown: AbortSignal): MiddlewareHandler<ServerEnv> {
  return async (c, next) => {
    if (!shutdown.aborted) return next();
    c.header('Connection', 'close');
    const isWrite = c.req.method !== 'GET' && c.req.method !== 'HEAD' && c.req.method !== 'OPTIONS';
    if (
      isWrite &&
      c.req.path.startsWith('/v1/') &&
      !(c.req.method === 'POST' && ABORT_ROUTE.test(c.req.path))
    ) {
      c.header('Retry-After', '1');
      return apiError(c, 503, 'SHUTTING_DOWN', 'the server is shutting down; retry shortly');
    }
    return next();
  };
}
