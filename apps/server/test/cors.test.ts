import { afterEach, describe, expect, it } from 'vitest';
import { createServerApp, type ServerAppOptions } from '../src/app/create-server-app.js';
import { inProcessAppParts } from './support/in-process-app-parts.js';
import { startTestServer, type TestServer, type TestServerOptions } from './support/start-test-server.js';

const TOKEN = 'cors-token-a41f-09e2';
const PAGE = 'https://app.example.com';
let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

// startTestServer hands every other option to createServerApp.
const start = (options: TestServerOptions & Pick<ServerAppOptions, 'cors' | 'rateLimit'>) =>
  startTestServer({ apiToken: TOKEN, ...options });

const preflight = (origin: string, path = '/v1/conversations') =>
  fetch(`${server?.baseURL}${path}`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    },
  });

const corsHeaders = (response: Response) =>
  [...response.headers.keys()].filter((name) => name.startsWith('access-control-'));

describe('CORS', () => {
  it('is off by default: no Access-Control headers, and a preflight is not answered', async () => {
    server = await start({});
    const actual = await server.request('/v1/conversations', { headers: { origin: PAGE } });
    expect(actual.status).toBe(200);
    expect(corsHeaders(actual)).toEqual([]);
    const answer = await preflight(PAGE);
    expect(answer.status).toBe(401);
    expect(corsHeaders(answer)).toEqual([]);
  });

  it('answers the preflight and the request of an allowed origin', async () => {
    server = await start({ cors: { origins: [PAGE, 'http://localhost:5173'] } });
    const answer = await preflight(PAGE);
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(answer.headers.get('access-control-allow-methods')).toBe('GET,HEAD,POST,PATCH,DELETE');
    expect(answer.headers.get('access-control-allow-headers')).toBe(
      'Authorization,Content-Type,Last-Event-ID',
    );
    expect(answer.headers.get('access-control-max-age')).toBe('600');
    expect(answer.headers.has('access-control-allow-credentials')).toBe(false);
    expect(answer.headers.get('vary')).toContain('Origin');

    const actual = await server.request('/v1/conversations', {
      headers: { origin: 'http://localhost:5173' },
    });
    expect(actual.status).toBe(200);
    expect(actual.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(actual.headers.get('access-control-expose-headers')).toContain('Retry-After');
    expect(actual.headers.get('access-control-expose-headers')).toContain('RateLimit-Remaining');
    expect(actual.headers.get('vary')).toContain('Origin');

    // Errors are readable by the page too (it must see its 401 or 429).
    const refused = await server.request('/v1/conversations', {
      headers: { origin: PAGE, authorization: 'Bearer wrong-token-123456' },
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(PAGE);
  });

  it('gives another origin, or a request without one, no CORS headers', async () => {
    server = await start({ cors: { origins: [PAGE] } });
    for (const origin of ['https://evil.example.com', 'https://app.example.com.evil.net', 'null']) {
      const answer = await preflight(origin);
      expect(answer.status, origin).toBe(401);
      expect(corsHeaders(answer), origin).toEqual([]);
      const actual = await server.request('/v1/conversations', { headers: { origin } });
      expect(corsHeaders(actual), origin).toEqual([]);
      expect(actual.headers.get('vary'), origin).toContain('Origin');
    }
    expect(corsHeaders(await server.request('/v1/conversations'))).toEqual([]);
  });

  it("allows any origin with '*', never with credentials", async () => {
    server = await start({ cors: { origins: ['*'] } });
    const answer = await preflight('https://anywhere.example.org');
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.has('access-control-allow-credentials')).toBe(false);
    const actual = await server.request('/v1/conversations', { headers: { origin: 'https://x.example' } });
    expect(actual.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('lets a page read a 429 and its Retry-After', async () => {
    server = await start({ cors: { origins: [PAGE] }, rateLimit: { requestsPerSecond: 0.1, burst: 1 } });
    await server.request('/v1/conversations', { headers: { origin: PAGE } });
    const limited = await server.request('/v1/conversations', { headers: { origin: PAGE } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(limited.headers.get('access-control-expose-headers')).toContain('Retry-After');
  });

  it('refuses origins a browser never sends', () => {
    const base = inProcessAppParts();
    for (const origins of [
      [],
      ['https://app.example.com/'],
      ['app.example.com'],
      ['*', PAGE],
      ['null'],
      ['ftp://x.y'],
    ]) {
      expect(() => createServerApp({ ...base, cors: { origins } }), JSON.stringify(origins)).toThrow(
        /cors\.origins/,
      );
    }
    expect(() => createServerApp({ ...base, cors: { origins: ['http://[::1]:8080', PAGE] } })).not.toThrow();
  });
});
