import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { apiError } from '../http/api-error.js';
import type { ServerEnv } from '../server-env.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * Requires `Authorization: Bearer <apiToken>`, else 401 with `WWW-Authenticate: Bearer`. Both
 * sides are hashed first, so the constant-time comparison also hides the token's length.
 */
export function bearerAuth(apiToken: string): MiddlewareHandler<ServerEnv> {
  const expected = sha256(apiToken);
  return async (c, next) => {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(c.req.header('authorization') ?? '');
    const given = match?.[1];
    if (given === undefined || !timingSafeEqual(sha256(given), expected)) {
      c.header('WWW-Authenticate', 'Bearer');
      return apiError(c, 401, 'UNAUTHORIZED', 'a valid bearer token is required');
    }
    await next();
  };
}
