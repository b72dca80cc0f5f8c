import { readFile } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import type { Context } from 'hono';
import { apiError } from '../http/api-error.js';
import type { RouteDeps } from '../route-deps.js';
import type { ServerApp, ServerEnv } from '../server-env.js';

export type WebRouteDeps = Pick<RouteDeps, 'webRoot'>;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

// Vite names assets `<name>-<hash>.<ext>`: a changed file gets a new name, so caching it for a year is safe.
const ASSET_CACHE = 'public, max-age=31536000, immutable';
// The page names the current assets: always revalidated, so a rebuilt server is picked up.
const PAGE_CACHE = 'no-cache';
// One path segment, not starting with a dot: nothing outside `assets/` can be named (no `/`, no `..`).
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,200}$/;

// The page talks to its own origin only; its token never leaves it (no inline script, no referrer, no framing).
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; " +
    "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
};

/**
 * The web page: `index.html` at `/` and its hashed assets under `/assets/*`, without auth (the
 * page asks for the token itself and sends it to `/v1`). Files are read per request, so a rebuild
 * needs no restart. No route at all without a `webRoot`.
 */
export function registerWebRoutes(app: ServerApp, deps: WebRouteDeps): void {
  if (deps.webRoot === undefined) return;
  const root = resolve(deps.webRoot);
  const assets = join(root, 'assets');

  app.get('/', (c) => sendFile(c, join(root, 'index.html'), PAGE_CACHE));
  app.get('/assets/:name', (c) => {
    const name = c.req.param('name');
    if (!ASSET_NAME.test(name) || CONTENT_TYPES[extname(name)] === undefined) return noSuchFile(c);
    return sendFile(c, join(assets, name), ASSET_CACHE);
  });
}

async function sendFile(c: Context<ServerEnv>, path: string, cacheControl: string): Promise<Response> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    if (isMissingFile(error)) return noSuchFile(c);
    throw error;
  }
  const contentType = CONTENT_TYPES[extname(path)] ?? 'application/octet-stream';
  return c.body(new Uint8Array(bytes), 200, {
    ...SECURITY_HEADERS,
    'Content-Type': contentType,
    'Cache-Control': cacheControl,
  });
}

const noSuchFile = (c: Context<ServerEnv>) => apiError(c, 404, 'NOT_FOUND', 'no such file');

const isMissingFile = (error: unknown) =>
  error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'EISDIR');
