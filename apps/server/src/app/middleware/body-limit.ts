import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit as honoBodyLimit } from 'hono/body-limit';

/**
 * Refuses a request body over `maxSize` bytes (`onError` answers). A body of declared length is judged
 * by its `Content-Length` without being touched, so @hono/node-server still reads it straight from the
 * socket when the route parses it (hono's own `bodyLimit` asks for `request.body` first, which makes
 * node-server build a whole web `Request` and stream every body through it). A chunked body is counted
 * as it is read, by hono's (so is one whose length is not in the headers: `app.request()`).
 */
export function bodyLimit(options: {
  maxSize: number;
  onError: (c: Context) => Response | Promise<Response>;
}): MiddlewareHandler {
  const counted = honoBodyLimit(options);
  return async (c, next) => {
    // A fetch `Request` with these methods has no body.
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const { headers } = c.req.raw;
    const length = headers.get('content-length');
    if (length === null || headers.has('transfer-encoding')) return counted(c, next);
    return Number.parseInt(length, 10) > options.maxSize ? options.onError(c) : next();
  };
}
