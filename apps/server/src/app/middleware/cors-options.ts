import { CairnError } from '@cairn/core';
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import type { ServerEnv } from '../server-env.js';

/**
 * Browser pages on other origins allowed to call the API. Exact origins
 * (`https://app.example.com`, no path), or `['*']` for any page: the token travels in the
 * `Authorization` header, never in cookies, so credentials are never allowed and `*` is safe to send.
 */
export interface CorsOptions {
  origins: string[];
}

const ALLOW_HEADERS = ['Authorization', 'Content-Type', 'Last-Event-ID'];
const EXPOSE_HEADERS = [
  'Retry-After',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'X-Request-Id',
];

/** Refuses origins a browser never sends (a path, a trailing slash, `null`), so a typo does not silently allow nothing. */
function checkOrigins(origins: string[]): void {
  if (origins.length === 0)
    throw new CairnError('INVALID_ARGUMENT', 'cors.origins must name at least one origin');
  if (origins.includes('*')) {
    if (origins.length > 1)
      throw new CairnError('INVALID_ARGUMENT', "cors.origins: '*' must be the only entry");
    return;
  }
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin) {
      throw new CairnError(
        'INVALID_ARGUMENT',
        `cors.origins: ${JSON.stringify(origin)} is not an origin like https://app.example.com`,
      );
    }
  }
}

/**
 * CORS for the configured origins only (without this middleware the server sends no CORS headers
 * at all). A request from any other origin, or with no `Origin`, gets no `Access-Control-*`
 * headers, so its preflight goes on to the routes (and fails there). Mount it before
 * authentication: preflights carry no token.
 */
export function corsMiddleware(options: CorsOptions): MiddlewareHandler<ServerEnv> {
  checkOrigins(options.origins);
  const anyOrigin = options.origins.includes('*');
  const allowed = new Set(options.origins);
  const handle = cors({
    origin: anyOrigin ? '*' : [...allowed],
    allowMethods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
    allowHeaders: ALLOW_HEADERS,
    exposeHeaders: EXPOSE_HEADERS,
    credentials: false,
    maxAge: 600,
  });
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (origin !== undefined && (anyOrigin || allowed.has(origin))) return handle(c, next);
    await next();
    // The answer depends on the Origin: caches must not hand this one to an allowed page.
    if (!anyOrigin) c.header('Vary', 'Origin', { append: true });
  };
}
