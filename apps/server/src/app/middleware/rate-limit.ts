import { CairnError, definedFields } from '@cairn/core';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { apiError } from '../http/api-error.js';
import { bearerTokenHash } from '../http/caller-id.js';
import type { ServerEnv } from '../server-env.js';
import { KeyedTokenBuckets } from './token-bucket.js';

/** Requests a caller may make: `requestsPerSecond` sustained, `burst` at once (a token bucket). */
export interface RateLimitOptions {
  requestsPerSecond: number;
  burst: number;
}

/**
 * Enough for the web page and scripted clients (a page load is a handful of requests, a live
 * stream is one), low enough that one runaway client cannot flood the store. A load test sets
 * its own limit or `false`.
 */
export const DEFAULT_RATE_LIMIT: RateLimitOptions = { requestsPerSecond: 20, burst: 40 };

export interface RateLimitSettings {
  /** The server checks a bearer token: callers are told apart by their token, else by their address. */
  keyByToken: boolean;
  /** Buckets kept at most (callers seen recently); default 10,000. */
  maxKeys?: number;
  /** Monotonic milliseconds; for tests. */
  now?: () => number;
}

/** Refuses options that would make every request a 429 (or none), before the server starts. */
function checkRateLimit({ requestsPerSecond, burst }: RateLimitOptions): void {
  if (!(Number.isFinite(requestsPerSecond) && requestsPerSecond > 0)) {
    throw new CairnError('INVALID_ARGUMENT', 'rateLimit.requestsPerSecond must be a positive number');
  }
  if (!(Number.isInteger(burst) && burst >= 1)) {
    throw new CairnError('INVALID_ARGUMENT', 'rateLimit.burst must be a whole number of at least 1');
  }
}

/**
 * A token bucket per caller: the sha256 of its bearer token (the token itself is never kept), or
 * its socket address when the server runs without a token (forwarded-for headers are not trusted).
 * Over the limit: 429 `RATE_LIMITED` with `Retry-After` in whole seconds. Every answer carries
 * `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds until the bucket is full).
 * Mount it after authentication, so that wrong tokens do not get buckets.
 */
export function rateLimit(
  options: RateLimitOptions,
  settings: RateLimitSettings,
): MiddlewareHandler<ServerEnv> {
  checkRateLimit(options);
  const buckets = new KeyedTokenBuckets({
    requestsPerSecond: options.requestsPerSecond,
    burst: options.burst,
    ...definedFields({ maxKeys: settings.maxKeys }),
  });
  const now = settings.now ?? (() => performance.now());
  const limit = String(options.burst);
  return async (c, next) => {
    const taken = buckets.take(callerKey(c, settings.keyByToken), now());
    c.header('RateLimit-Limit', limit);
    c.header('RateLimit-Remaining', String(taken.remaining));
    c.header('RateLimit-Reset', String(Math.ceil(taken.resetMs / 1000)));
    if (!taken.allowed) {
      c.header('Retry-After', String(Math.max(1, Math.ceil(taken.retryAfterMs / 1000))));
      return apiError(c, 429, 'RATE_LIMITED', 'too many requests; retry after Retry-After seconds');
    }
    await next();
  };
}

function callerKey(c: Context<ServerEnv>, keyByToken: boolean): string {
  const hash = keyByToken ? bearerTokenHash(c) : undefined;
  if (hash !== undefined) return `token:${hash}`;
  return `address:${remoteAddress(c) ?? 'unknown'}`;
}

function remoteAddress(c: Context<ServerEnv>): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    // Not served by @hono/node-server (`app.fetch` called directly): one shared bucket.
    return undefined;
  }
}
