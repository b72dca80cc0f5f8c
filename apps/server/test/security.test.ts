import { createMemoryConversationStore } from '@cairn/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { type ApiErrorBody, errorCode, jsonBody } from './support/json-body.js';
import { startTestServer, type TestServer, waitFor } from './support/start-test-server.js';

const TOKEN = 'test-token-5b1e-0c9d';
let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('authentication', () => {
  it('answers 401 with WWW-Authenticate without the token or with a wrong one, 200 with it', async () => {
    server = await startTestServer({ apiToken: TOKEN });
    const missing = await server.request('/v1/conversations', { headers: { authorization: '' } });
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    expect(await jsonBody(missing)).toEqual({
      error: { code: 'UNAUTHORIZED', message: 'a valid bearer token is required' },
    });
    for (const wrong of ['Bearer nope', `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, TOKEN]) {
      const response = await server.request('/v1/conversations', { headers: { authorization: wrong } });
      expect(response.status, wrong).toBe(401);
    }
    const ok = await server.request('/v1/conversations');
    expect(ok.status).toBe(200);
    expect(await jsonBody(ok)).toEqual({ conversations: [] });
  });

  it('leaves the probes and the OpenAPI document open', async () => {
    server = await startTestServer({ apiToken: TOKEN });
    for (const path of ['/healthz', '/readyz', '/openapi.json']) {
      expect((await fetch(`${server.baseURL}${path}`)).status, path).toBe(200);
    }
  });

  it('refuses a short or spaced API token when the app is made', async () => {
    await expect(startTestServer({ apiToken: '' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(startTestServer({ apiToken: 'has spaces in it, long enough' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});

describe('limits and validation', () => {
  it('a body that is not declared as JSON is a 415, not an internal error', async () => {
    server = await startTestServer();
    const response = await server.request('/v1/conversations/c1/messages', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(response.status).toBe(415);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      'UNSUPPORTED_MEDIA_TYPE',
    );
  });

  it('answers 413 to a body over the limit', async () => {
    // A message post may also carry attachments (their own limit, see attachments.test.ts).
    server = await startTestServer({ bodyLimitBytes: 1024 });
    const response = await server.request('/v1/conversations', json({ id: 'x'.repeat(2000) }));
    expect(response.status).toBe(413);
    expect(await errorCode(response)).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers 400 INVALID_ID to unsafe ids in paths and bodies', async () => {
    server = await startTestServer();
    const attempts: Array<[string, RequestInit?]> = [
      ['/v1/conversations/..%2Fx/messages'],
      ['/v1/conversations/a%2Fb', { method: 'DELETE' }],
      ['/v1/conversations/.hidden/events'],
      ['/v1/conversations/..%2Fx/messages', json({ content: 'hi' })],
      ['/v1/conversations', json({ id: 'a/b' })],
      ['/v1/conversations', json({ id: '..' })],
    ];
    for (const [path, init] of attempts) {
      const response = await server.request(path, init);
      expect(response.status, path).toBe(400);
      expect(await errorCode(response), path).toBe('INVALID_ID');
    }
  });

  it('answers 400 INVALID_ARGUMENT naming the invalid field', async () => {
    server = await startTestServer();
    const cases: Array<[string, RequestInit | undefined, string]> = [
      ['/v1/conversations/c1/messages', json({}), 'body.content'],
      ['/v1/conversations/c1/messages', json({ content: '' }), 'body.content'],
      ['/v1/conversations/c1/messages', json({ content: '   ' }), 'body.content'],
      ['/v1/conversations/c1/messages', json({ content: 'x'.repeat(100_001) }), 'body.content'],
      ['/v1/conversations/c1/messages', json('{"content": '), 'JSON'],
      ['/v1/conversations?limit=0', undefined, 'query.limit'],
      ['/v1/conversations/c1/messages?view=raw', undefined, 'query.view'],
      ['/v1/conversations/c1/events', { headers: { 'last-event-id': 'abc' } }, 'header.last-event-id'],
    ];
    for (const [path, init, where] of cases) {
      const response = await server.request(path, init);
      expect(response.status, where).toBe(400);
      const { error } = await jsonBody<ApiErrorBody>(response);
      expect(error.code, where).toBe('INVALID_ARGUMENT');
      expect(error.message, where).toContain(where);
    }
  });

  it('answers 429 with Retry-After when the concurrent turns are at the limit', async () => {
    server = await startTestServer({ maxConcurrentTurns: 1, turns: [{ text: 'slow', delayMs: 300 }] });
    const first = server.postMessage('c1', 'one');
    await waitFor(() => server?.handle.activeTurns() === 1);
    const second = await server.postMessage('c2', 'two');
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBe('1');
    expect(await errorCode(second)).toBe('TOO_MANY_TURNS');
    expect((await first).status).toBe(200);
    expect(server.handle.activeTurns()).toBe(0);
  });

  it('answers unknown routes 404 in the error shape', async () => {
    server = await startTestServer();
    const response = await server.request('/v1/nothing');
    expect(response.status).toBe(404);
    expect(await jsonBody(response)).toEqual({ error: { code: 'NOT_FOUND', message: 'no such route' } });
  });
});

describe('unexpected errors', () => {
  it('answers 500 INTERNAL without details and logs only ids and the error name', async () => {
    const store = createMemoryConversationStore();
    store.listConversations = async () => {
      throw new TypeError('secret connection string postgres://u:p@db');
    };
    const logs: object[] = [];
    const capture = (fields: object) => void logs.push(fields);
    server = await startTestServer({
      store,
      apiToken: TOKEN,
      logger: { info: capture, warn: capture, error: capture },
    });
    const response = await server.request('/v1/conversations');
    expect(response.status).toBe(500);
    expect(await jsonBody(response)).toEqual({ error: { code: 'INTERNAL', message: 'internal error' } });
    expect((await fetch(`${server.baseURL}/readyz`)).status).toBe(503);
    expect(logs).toContainEqual(expect.objectContaining({ errorName: 'TypeError' }));
    expect(logs).toContainEqual(
      expect.objectContaining({ route: '/v1/conversations', status: 500, errorCode: 'INTERNAL' }),
    );
    const logged = JSON.stringify(logs);
    expect(logged).not.toContain('secret');
    expect(logged).not.toContain(TOKEN);
  });
});

describe('request log', () => {
  it('logs ids, routes, statuses and codes, never bodies or the token', async () => {
    const logs: object[] = [];
    const capture = (fields: object) => void logs.push(fields);
    server = await startTestServer({
      apiToken: TOKEN,
      turns: [{ text: 'the secret answer' }],
      logger: { info: capture, warn: capture, error: capture },
    });
    await server.postMessage('c1', 'my secret question');
    expect(logs).toContainEqual(expect.objectContaining({ conversationId: 'c1', success: true }));
    expect(logs).toContainEqual(
      expect.objectContaining({
        requestId: expect.any(String),
        method: 'POST',
        route: '/v1/conversations/:id/messages',
        status: 200,
        conversationId: 'c1',
        durationMs: expect.any(Number),
      }),
    );
    const logged = JSON.stringify(logs);
    expect(logged).not.toContain('secret');
    expect(logged).not.toContain(TOKEN);
  });
});
