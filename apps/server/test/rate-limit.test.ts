import { request as httpRequest } from 'node:http';
import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServerApp, type ServerAppOptions } from '../src/app/create-server-app.js';
import { rateLimit } from '../src/app/middleware/rate-limit.js';
import type { ServerEnv } from '../src/app/server-env.js';
import { inProcessAppParts } from './support/in-process-app-parts.js';
import { jsonBody } from './support/json-body.js';
import { startTestServer, type TestServer, type TestServerOptions } from './support/start-test-server.js';

const TOKEN = 'rate-limit-token-7d2a';
let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

// startTestServer hands every other option to createServerApp.
const start = (options: TestServerOptions & Pick<ServerAppOptions, 'rateLimit'>) => startTestServer(options);

/** Requests until one is not a 429 (the bucket refilled); fails after `timeoutMs`. */
function untilAllowed(send: () => Promise<Response>, timeoutMs = 5_000): Promise<Response> {
  return vi.waitFor(
    async () => {
      const response = await send();
      if (response.status === 429) {
        await response.body?.cancel();
        throw new Error(`still 429 after ${timeoutMs} ms`);
      }
      return response;
    },
    { timeout: timeoutMs, interval: 50 },
  );
}

/** A GET sent from a chosen loopback address (Linux answers on all of 127.0.0.0/8): another client. */
function getFrom(localAddress: string, url: string): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(url, { localAddress }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0 }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

describe('rate limit', () => {
  it('answers 429 RATE_LIMITED with Retry-After after the burst, and again 200 once the bucket refills', async () => {
    server = await start({ apiToken: TOKEN, rateLimit: { requestsPerSecond: 1, burst: 3 } });
    const list = () => server?.request('/v1/conversations') ?? Promise.reject(new Error('no server'));
    const first = await list();
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-limit')).toBe('3');
    expect(first.headers.get('ratelimit-remaining')).toBe('2');
    expect(Number(first.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);
    expect([(await list()).status, (await list()).status]).toEqual([200, 200]);

    const limited = await list();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(await jsonBody(limited)).toEqual({
      error: { code: 'RATE_LIMITED', message: 'too many requests; retry after Retry-After seconds' },
    });
    // The probes are not limited.
    expect((await fetch(`${server.baseURL}/healthz`)).status).toBe(200);

    expect((await untilAllowed(list)).status).toBe(200);
  });

  it('does not limit a wrong token (it is refused first) and gives it no bucket', async () => {
    server = await start({ apiToken: TOKEN, rateLimit: { requestsPerSecond: 0.5, burst: 1 } });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const wrong = await server.request('/v1/conversations', {
        headers: { authorization: 'Bearer not-it' },
      });
      expect(wrong.status).toBe(401);
    }
    expect((await server.request('/v1/conversations')).status).toBe(200);
    expect((await server.request('/v1/conversations')).status).toBe(429);
  });

  it('keys callers by address when the server has no token', async () => {
    server = await start({ rateLimit: { requestsPerSecond: 0.5, burst: 2 } });
    const url = `${server.baseURL}/v1/conversations`;
    const statuses = [];
    for (let attempt = 0; attempt < 3; attempt += 1) statuses.push((await getFrom('127.0.0.1', url)).status);
    expect(statuses).toEqual([200, 200, 429]);
    expect((await getFrom('127.0.0.2', url)).status).toBe(200);
    expect((await getFrom('127.0.0.1', url)).status).toBe(429);
  });

  it('is on by default, and off with rateLimit: false', async () => {
    server = await start({});
    expect((await server.request('/v1/conversations')).headers.get('ratelimit-limit')).toBe('40');
    await server.close();
    server = await start({ rateLimit: false });
    const responses = await Promise.all(
      Array.from({ length: 60 }, () => server?.request('/v1/conversations')),
    );
    expect(responses.map((response) => response?.status)).toEqual(Array(60).fill(200));
    expect(responses[0]?.headers.has('ratelimit-limit')).toBe(false);
  });

  it('keeps a bucket per token', async () => {
    const app = new Hono<ServerEnv>();
    app.use('*', rateLimit({ requestsPerSecond: 0.1, burst: 1 }, { keyByToken: true, now: () => 0 }));
    app.get('/', (c) => c.text('ok'));
    const get = (token: string) =>
      app.fetch(new Request('http://localhost/', { headers: { authorization: `Bearer ${token}` } }));
    expect((await get('token-a')).status).toBe(200);
    expect((await get('token-a')).status).toBe(429);
    expect((await get('token-b')).status).toBe(200);
    expect((await get('token-b')).status).toBe(429);
  });

  it('refuses a limit that would refuse everything', () => {
    const base = inProcessAppParts();
    for (const bad of [
      { requestsPerSecond: 0, burst: 1 },
      { requestsPerSecond: Number.NaN, burst: 1 },
      { requestsPerSecond: 1, burst: 0 },
      { requestsPerSecond: 1, burst: 1.5 },
    ]) {
      expect(() => createServerApp({ ...base, rateLimit: bad }), JSON.stringify(bad)).toThrow(/rateLimit/);
    }
  });
});
