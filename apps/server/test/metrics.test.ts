import { afterEach, describe, expect, it } from 'vitest';
import type { ServerAppOptions } from '../src/app/create-server-app.js';
import { createServerMetrics, turnOutcome } from '../src/app/server-metrics.js';
import { jsonBody } from './support/json-body.js';
import { SseReader } from './support/read-sse.js';
import { startTestServer, type TestServer, type TestServerOptions } from './support/start-test-server.js';

const TOKEN = 'metrics-token-3f9c-81ab';
const servers: TestServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

// startTestServer hands every other option to createServerApp.
async function start(options: TestServerOptions & Pick<ServerAppOptions, 'rateLimit' | 'metrics'> = {}) {
  const server = await startTestServer(options);
  servers.push(server);
  return server;
}

async function scrape(server: TestServer): Promise<string> {
  const response = await server.request('/metrics');
  expect(response.status).toBe(200);
  return response.text();
}

/** The value of one sample (`name{labels}` exactly as exposed), or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const streamMessage = (server: TestServer, conversationId: string) =>
  server.request(`/v1/conversations/${conversationId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ content: 'Hi' }),
  });

describe('GET /metrics', () => {
  it('needs the token when the server has one, and speaks the Prometheus text format', async () => {
    const server = await start({ apiToken: TOKEN });
    const anonymous = await fetch(`${server.baseURL}/metrics`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
    const wrong = await server.request('/metrics', {
      headers: { authorization: 'Bearer wrong-token-123456' },
    });
    expect(wrong.status).toBe(401);

    const response = await server.request('/metrics');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await response.text();
    expect(text).toContain('# TYPE cairn_http_requests_total counter');
    expect(text).toContain('# TYPE cairn_http_request_duration_seconds histogram');
    // prom-client's process metrics come along.
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });

  it('is open when the server has no token', async () => {
    const server = await start();
    expect((await fetch(`${server.baseURL}/metrics`)).status).toBe(200);
  });

  it('labels requests by route pattern, never by the path with its ids', async () => {
    const server = await start({ apiToken: TOKEN, turns: [{ text: 'Hello' }] });
    expect((await server.postMessage('secret-conversation-41', 'Hi')).status).toBe(200);
    await server.request('/v1/conversations/secret-conversation-41/messages');
    await server.request('/v1/conversations/secret-conversation-42/messages', {
      headers: { authorization: 'Bearer wrong-token-123456' },
    });
    await server.request('/v1/no-such-route/secret-conversation-43');
    // A method no route of that path has (PATCH renames a conversation, PUT is nothing).
    await server.request('/v1/conversations/secret-conversation-44', { method: 'PUT' });

    const text = await scrape(server);
    expect(text).not.toContain('secret-conversation');
    const route = '/v1/conversations/:id/messages';
    expect(sample(text, `cairn_http_requests_total{method="POST",route="${route}",status="200"}`)).toBe(1);
    expect(sample(text, `cairn_http_requests_total{method="GET",route="${route}",status="200"}`)).toBe(1);
    // Refused by auth before the route ran: still labelled with the route that would have answered.
    expect(sample(text, `cairn_http_requests_total{method="GET",route="${route}",status="401"}`)).toBe(1);
    expect(sample(text, 'cairn_http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(1);
    expect(sample(text, 'cairn_http_requests_total{method="PUT",route="unmatched",status="404"}')).toBe(1);
    expect(
      sample(text, `cairn_http_request_duration_seconds_count{method="POST",route="${route}",status="200"}`),
    ).toBe(1);
    expect(sample(text, 'cairn_turns_started_total')).toBe(1);
    expect(sample(text, 'cairn_turns_active')).toBe(0);
  });

  it('counts the turns running and the event streams open, by kind', async () => {
    const server = await start({ turns: [{ text: 'slow', delayMs: 10_000 }] });
    const turn = new SseReader(await streamMessage(server, 'c1'));
    expect((await turn.next())?.event).toBe('message');
    const events = await server.request('/v1/conversations/c1/events');
    expect(events.status).toBe(200);
    const feed = new SseReader(events);
    expect((await feed.next())?.event).toBe('message');

    const during = await scrape(server);
    expect(sample(during, 'cairn_turns_active')).toBe(1);
    expect(sample(during, 'cairn_turns_started_total')).toBe(1);
    expect(sample(during, 'cairn_sse_streams_open{kind="turn"}')).toBe(1);
    expect(sample(during, 'cairn_sse_streams_open{kind="events"}')).toBe(1);

    await feed.close();
    await waitForSample(server, 'cairn_sse_streams_open{kind="events"}', 0);
    expect(await jsonBody(await server.request('/v1/conversations/c1/abort', { method: 'POST' }))).toEqual({
      aborted: true,
    });
    expect((await turn.readUntil((event) => event.event === 'done')).at(-1)?.event).toBe('done');
    await waitForSample(server, 'cairn_sse_streams_open{kind="turn"}', 0);
    expect(sample(await scrape(server), 'cairn_turns_active')).toBe(0);
  });

  it('does not count a turn refused while the server drains', async () => {
    const server = await start({ turns: [{ text: 'never' }] });
    server.handle.beginShutdown();
    expect((await server.postMessage('c1', 'Hi')).status).toBe(503);
    expect(sample(await scrape(server), 'cairn_turns_started_total')).toBe(0);
  });

  it('counts rate-limited requests', async () => {
    const server = await start({ rateLimit: { requestsPerSecond: 0.1, burst: 1 } });
    expect((await server.request('/v1/conversations')).status).toBe(200);
    expect((await server.request('/v1/conversations')).status).toBe(429);
    const text = await scrape(server);
    expect(sample(text, 'cairn_rate_limited_requests_total')).toBe(1);
    expect(
      sample(text, 'cairn_http_requests_total{method="GET",route="/v1/conversations",status="429"}'),
    ).toBe(1);
  });

  it('keeps each app to its own registry', async () => {
    const first = await start();
    const second = await start();
    await first.request('/v1/conversations');
    await first.request('/v1/conversations');
    await second.request('/v1/conversations');
    const series = 'cairn_http_requests_total{method="GET",route="/v1/conversations",status="200"}';
    expect(sample(await scrape(first), series)).toBe(2);
    expect(sample(await scrape(second), series)).toBe(1);
  });

  it('is left out with metrics: false', async () => {
    const server = await start({ metrics: false });
    expect((await server.request('/metrics')).status).toBe(404);
  });

  it('is in the OpenAPI document as text/plain, with the token only when there is one', async () => {
    type Operation = { security?: unknown; responses: Record<string, { content?: object }> };
    const operation = async (server: TestServer) => {
      const document = await jsonBody<{ paths: Record<string, { get?: Operation }> }>(
        await fetch(`${server.baseURL}/openapi.json`),
      );
      return document.paths['/metrics']?.get;
    };
    const guarded = await operation(await start({ apiToken: TOKEN }));
    expect(Object.keys(guarded?.responses ?? {}).sort()).toEqual(['200', '401']);
    expect(guarded?.responses['200']?.content).toHaveProperty('text/plain');
    expect(guarded).not.toHaveProperty('security');
    const open = await operation(await start());
    expect(open?.security).toEqual([]);
    expect(Object.keys(open?.responses ?? {})).toEqual(['200']);
  });
});

describe('createServerMetrics', () => {
  it('counts the turns a tracked promise ends, by outcome', async () => {
    const metrics = createServerMetrics({ activeTurns: () => 0, processMetrics: false });
    await metrics.trackTurn(Promise.resolve({ success: true }));
    await metrics.trackTurn(Promise.resolve({ success: false, error: { code: 'LLM_AUTH' } }));
    await metrics.trackTurn(Promise.resolve({ success: false, error: { code: 'LLM_ABORTED' } }));
    await expect(metrics.trackTurn(Promise.reject(new Error('store down')))).rejects.toThrow('store down');
    const text = await metrics.registry.metrics();
    for (const outcome of ['success', 'failed', 'aborted', 'error']) {
      expect(sample(text, `cairn_turns_finished_total{outcome="${outcome}"}`), outcome).toBe(1);
    }
    expect(text).not.toContain('process_cpu');
    expect(turnOutcome({ success: true })).toBe('success');
  });
});

async function waitForSample(server: TestServer, series: string, value: number): Promise<void> {
  await expect
    .poll(async () => sample(await scrape(server), series), { message: series, timeout: 5_000, interval: 20 })
    .toBe(value);
}
