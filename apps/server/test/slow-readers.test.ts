import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createAgentRuntime } from '@cairn/runtime';
import { createMemoryConversationStore } from '@cairn/storage';
import { ScriptedModel, type ScriptTurn, simulatedDelay } from '@cairn/testing';
import { serve } from '@hono/node-server';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { createServerApp } from '../src/app/create-server-app.js';
import type { SseStreamLimits } from '../src/app/streams/sse-writer.js';
import { createInProcessEventBus } from '../src/events/in-process-event-bus.js';
import { createInProcessTurnLock } from '../src/turn-lock/in-process-turn-lock.js';
import { SseReader } from './support/read-sse.js';

/** The app with these stream limits on a real HTTP server (what decides when a socket backs up). */
async function startServer(streamLimits: SseStreamLimits, turns: ScriptTurn[] = []) {
  const store = createMemoryConversationStore();
  const events = createInProcessEventBus();
  let subscriptions = 0;
  const subscribe = events.subscribe.bind(events);
  events.subscribe = (conversationId, listener) => {
    subscriptions += 1;
    const unsubscribe = subscribe(conversationId, listener);
    return () => {
      subscriptions -= 1;
      unsubscribe();
    };
  };
  const runtime = createAgentRuntime({
    store,
    model: new ScriptedModel({ turns }),
    settings: { compression: false },
  });
  const handle = createServerApp({
    store,
    runtime,
    events,
    turnLock: createInProcessTurnLock(),
    streamLimits,
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const started = serve({ fetch: handle.app.fetch, hostname: '127.0.0.1', port: 0 }, () =>
      resolve(started),
    );
  });
  onTestFinished(async () => {
    handle.abortAll();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      if ('closeAllConnections' in server) server.closeAllConnections();
    });
  });
  // The server's side of each connection: a paused client would not notice its end for a long time.
  const sockets: Socket[] = [];
  server.on('connection', (socket: Socket) => sockets.push(socket));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    store,
    events,
    handle,
    subscriptions: () => subscriptions,
    /** Resolves when the server has closed its side of the most recent connection. */
    lastConnectionClosed: () => {
      const socket = sockets.at(-1);
      return new Promise<void>((resolve) => {
        if (socket === undefined || socket.destroyed) resolve();
        else socket.once('close', () => resolve());
      });
    },
  };
}

/** A client that reads the response headers, then nothing more (`res.pause()`): the server's writes back up. */
function pausedClient(port: number, path: string, init: { method?: string; body?: string } = {}) {
  return new Promise<void>((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: init.method ?? 'GET',
        headers: { accept: 'text/event-stream', 'content-type': 'application/json' },
      },
      (response) => {
        response.pause();
        resolve();
      },
    );
    onTestFinished(() => void request.destroy());
    request.on('error', () => {});
    request.once('error', reject);
    request.end(init.body);
  });
}

/** Resolves `true` once `promise` settles, `false` if `condition` holds first for 15 s: no tight bound. */
async function settlesWhile(promise: Promise<unknown>, keepGoing: () => Promise<void>): Promise<boolean> {
  let settled = false;
  void promise.then(() => {
    settled = true;
  });
  const deadline = Date.now() + 15_000;
  while (!settled && Date.now() < deadline) await keepGoing();
  return settled;
}

/** Whether `promise` settles within `timeoutMs`. */
async function settlesWithin(promise: Promise<unknown>, timeoutMs: number): Promise<boolean> {
  let settled = false;
  void promise.then(() => {
    settled = true;
  });
  await vi.waitFor(() => expect(settled).toBe(true), { timeout: timeoutMs, interval: 20 }).catch(() => {});
  return settled;
}

const bigMessage = (index: number) => ({
  id: `m${index}`,
  role: 'user' as const,
  content: `${index} ${'x'.repeat(256 * 1024)}`,
  createdAt: new Date().toISOString(),
});

describe('an event-stream client that stops reading', () => {
  it('/events: is disconnected once a write stalls, and the feed lets go of it, however much is stored', async () => {
    const server = await startServer({ stallTimeoutMs: 200 });
    await server.store.append('c1', [bigMessage(0)]);
    await pausedClient(server.port, '/v1/conversations/c1/events');
    let appended = 1;
    // Keeps storing big messages (as turns would) until the server gives up on the client.
    const disconnected = await settlesWhile(server.lastConnectionClosed(), async () => {
      await server.store.append('c1', [bigMessage(appended)]);
      appended += 1;
      await server.events.publish({ conversationId: 'c1', lastSeq: appended });
      // Turns storing one message after another: the pace of the writer the client fails to follow.
      await simulatedDelay(20);
    });
    expect(disconnected).toBe(true);
    await expect.poll(() => server.subscriptions()).toBe(0);
  });

  it('a turn stream: is disconnected when too much waits for it, and the turn still runs to the end', async () => {
    // Far more than loopback's socket buffers absorb (send buffer autotuned up to tcp_wmem's 4 MiB, plus
    // the paused reader's receive buffer): with 4 MiB the kernel once took the whole answer (Node 24 CI
    // run), no backpressure came, and the stream was never cut.
    const text = 'y'.repeat(24 * 1024 * 1024);
    const server = await startServer({ maxBufferedBytes: 64 * 1024, stallTimeoutMs: 60_000 }, [
      { text, chunkSize: 64 * 1024, chunkDelayMs: 1 },
      { text: 'read at once' },
    ]);
    await pausedClient(server.port, '/v1/conversations/c1/messages', {
      method: 'POST',
      body: JSON.stringify({ content: 'Hi' }),
    });
    const disconnected = await settlesWithin(server.lastConnectionClosed(), 15_000);
    expect(disconnected).toBe(true);
    await expect.poll(() => server.handle.activeTurns(), { timeout: 15_000 }).toBe(0);
    const stored = await server.store.load('c1');
    expect(stored.at(-1)).toMatchObject({ role: 'assistant', content: text });

    // A client that reads gets the whole stream under the same limits.
    const response = await fetch(`http://127.0.0.1:${server.port}/v1/conversations/c1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ content: 'Again' }),
    });
    const events = await new SseReader(response).readUntil((event) => event.event === 'done');
    expect(events.at(-1)).toEqual({ event: 'done', data: JSON.stringify({ success: true }) });
  });
  it('a useChat stream (POST /v1/chat): is disconnected once a write stalls, and the turn runs to the end', async () => {
    const text = 'z'.repeat(24 * 1024 * 1024);
    const server = await startServer({ stallTimeoutMs: 200 }, [
      { text, chunkSize: 64 * 1024, chunkDelayMs: 1 },
      { text: 'read at once' },
    ]);
    const chat = (id: string, text: string) =>
      JSON.stringify({
        id: 'c1',
        trigger: 'submit-message',
        messages: [{ id, role: 'user', parts: [{ type: 'text', text }] }],
      });
    await pausedClient(server.port, '/v1/chat', { method: 'POST', body: chat('u1', 'Hi') });
    const disconnected = await settlesWithin(server.lastConnectionClosed(), 15_000);
    expect(disconnected).toBe(true);
    await expect.poll(() => server.handle.activeTurns(), { timeout: 15_000 }).toBe(0);
    const stored = await server.store.load('c1');
    expect(stored.at(-1)).toMatchObject({ role: 'assistant', content: text });

    // A client that reads gets the protocol's headers and the whole stream, to its `[DONE]`.
    const response = await fetch(`http://127.0.0.1:${server.port}/v1/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: chat('u2', 'Again'),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    const body = await response.text();
    expect(body).toContain('"finishReason":"stop"');
    expect(body.endsWith('data: [DONE]\n\n')).toBe(true);
  });
});
