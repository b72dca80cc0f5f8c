import { CairnError } from '@cairn/core';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { apiError, toPublicError } from '../http/api-error.js';
import { errorFields } from '../http/error-fields.js';
import type { ServerEnv, ServerLogger } from '../server-env.js';

/** `onError`: known failures as their status, anything else 500 `INTERNAL`, logged by name only. */
export function handleErrors(logger: ServerLogger) {
  return (error: Error, c: Context<ServerEnv>): Response => {
    // Hono's validator rejecting a body that is not JSON, or not declared as JSON.
    if (error instanceof HTTPException && error.status === 400) {
      return apiError(c, 400, 'INVALID_ARGUMENT', error.message);
    }
    if (error instanceof HTTPException && error.status === 415) {
      return apiError(
        c,
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        `send the body as ${c.req.path.endsWith('/messages') ? 'application/json or multipart/form-data' : 'application/json'}`,
      );
    }
    const shown = toPublicError(error);
    // A retryable outage (store or lock connections busy) says when to come back.
    if (shown.status === 503) c.header('Retry-After', String(retryAfterSeconds(error)));
    if (shown.code === 'INTERNAL') {
      logger.error({ requestId: c.get('requestId'), ...errorFields(error) }, 'unexpected error');
    }
    return apiError(c, shown.status, shown.code, shown.message);
  };
}

function retryAfterSeconds(error: Error): number {
  const ms = CairnError.is(error) ? error.retryAfterMs : undefined;
  return Math.max(1, Math.ceil((ms ?? 1000) / 1000));
}

/** `notFound`: unknown routes answer like every other error. */
export function notFoundHandler(c: Context<ServerEnv>): Response {
  return apiError(c, 404, 'NOT_FOUND', 'no such route');
}
