import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import type { ServerEnv } from '../server-env.js';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** The request's bearer token, hashed (SHA-256, base64url): a caller named without its secret. */
export function bearerTokenHash(c: Context<ServerEnv>): string | undefined {
  const token = BEARER.exec(c.req.header('authorization') ?? '')?.[1];
  return token === undefined ? undefined : createHash('sha256').update(token).digest('base64url');
}

/**
 * Who the caller is, as approvals record it: `caller:` and the first 16 characters of its token's
 * hash, or `local` when the server runs without a token (`--insecure-local`: the machine's own user).
 */
export function callerId(c: Context<ServerEnv>): string {
  const hash = bearerTokenHash(c);
  return hash === undefined ? 'local' : `caller:${hash.slice(0, 16)}`;
}
