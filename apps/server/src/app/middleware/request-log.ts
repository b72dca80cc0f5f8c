import { isSafeId } from '@cairn/core';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { ServerEnv, ServerLogger } from '../server-env.js';

/**
 * One line per request: its id, the route pattern (not the URL, which may hold anything), status,
 * duration, the conversation id and the error code. Never bodies, query strings or headers.
 */
export function requestLog(logger: ServerLogger): MiddlewareHandler<ServerEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    // After `next`, the context points at the handler that answered, so its route and params.
    const conversationId = c.req.param('id');
    logger.info(
      {
        requestId: c.get('requestId'),
        method: c.req.method,
        route: routePath(c, -1),
        status: c.res.status,
        durationMs: Math.round(performance.now() - started),
        ...(isSafeId(conversationId) ? { conversationId } : {}),
        ...(c.get('errorCode') === undefined ? {} : { errorCode: c.get('errorCode') }),
      },
      'request',
    );
  };
}
