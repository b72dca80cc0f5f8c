import type { AgentOutput, ConversationMessage } from '@cairn/core';
import { createAgentRuntime } from '@cairn/runtime';
import { createMemoryConversationStore } from '@cairn/storage';
import { ScriptedModel } from '@cairn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createServerApp, type ServerAppOptions } from '../src/app/create-server-app.js';
import { createInProcessEventBus } from '../src/events/in-process-event-bus.js';
import { createInProcessTurnLock } from '../src/turn-lock/in-process-turn-lock.js';
import { type SseEvent, SseReader } from './support/read-sse.js';
import { startTestServer, type TestServer, type TestServerOptions } from './support/start-test-server.js';

const PAGE = 'https://app.example.com';
const TURNS = [{ reasoning: 'They greet me', text: 'Hello there', chunkSize: 3 }];
let server: TestServer | undefined;

// startTestServer hands every other option to createServerApp.
const withCors: TestServerOptions & Pick<ServerAppOptions, 'cors'> = {
  turns: TURNS,
  cors: { origins: [PAGE] },
};

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const init = {
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'text/event-stream', origin: PAGE },
  body: JSON.stringify({ content: 'Hi' }),
};

/** The turn's events, with its `agent_output` and `message` data parsed. */
async function readTurn(response: Response) {
  const events = await new SseReader(response).readUntil((event) => event.event === 'done');
  const parsed = (name: string) => events.filter((event) => event.event === name).map(parse);
  return {
    events,
    outputs: parsed('agent_output') as AgentOutput[],
    messages: parsed('message') as ConversationMessage[],
  };
}
const parse = (event: SseEvent): unknown => JSON.parse(event.data);

/** The same app answered without a connection (`app.request`): hono's web-stream path. */
function inMemoryApp() {
  const store = createMemoryConversationStore();
  const runtime = createAgentRuntime({
    store,
    model: new ScriptedModel({ turns: TURNS }),
    settings: { compression: false },
  });
  return createServerApp({
    store,
    runtime,
    events: createInProcessEventBus(),
    turnLock: createInProcessTurnLock(),
    cors: { origins: [PAGE] },
  });
}

describe.each([
  ['on a connection (@hono/node-server)', 'node'],
  ['as a web stream (app.request)', 'web'],
] as const)('a turn event stream %s', (_name, path) => {
  const post = async (query = '') => {
    if (path === 'web') return inMemoryApp().app.request(`/v1/conversations/c1/messages${query}`, init);
    server = await startTestServer(withCors);
    return server.request(`/v1/conversations/c1/messages${query}`, init);
  };

  it("carries the middleware's headers (CORS, request id, rate limit) and the stream's own", async () => {
    const response = await post();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(response.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(response.headers.get('vary')).toContain('Origin');
    expect(response.headers.get('x-request-id')).toMatch(/.+/);
    expect(response.headers.get('ratelimit-limit')).toMatch(/^\d+$/);
    expect(response.headers.has('x-hono-already-sent')).toBe(false);
    const { events } = await readTurn(response);
    expect(events.at(-1)).toEqual({ event: 'done', data: JSON.stringify({ success: true }) });
  });

  it('sends the answer text and reasoning once by default: deltas, then the stored message without them', async () => {
    const { outputs, messages } = await readTurn(await post());
    const deltas = (type: AgentOutput['type']) =>
      outputs.flatMap((output) => (output.type === type && 'delta' in output ? [output.delta] : []));
    expect(deltas('text_delta').join('')).toBe('Hello there');
    expect(deltas('reasoning_delta').join('')).toBe('They greet me');
    expect(outputs.filter((output) => output.type === 'text' || output.type === 'reasoning')).toEqual([]);
    expect(
      messages.map((message) => [message.seq, message.role, message.content, message.reasoning]),
    ).toEqual([
      [1, 'user', 'Hi', undefined],
      [2, 'assistant', undefined, undefined],
    ]);
    expect(messages[1]).toMatchObject({ id: expect.any(String), createdAt: expect.any(String) });
  });

  it('sends the whole text and reasoning too with ?text=full', async () => {
    const { outputs, messages } = await readTurn(await post('?text=full'));
    expect(outputs.filter((output) => output.type === 'text')).toMatchObject([{ text: 'Hello there' }]);
    expect(outputs.filter((output) => output.type === 'reasoning')).toMatchObject([
      { text: 'They greet me' },
    ]);
    expect(messages.map((message) => message.content)).toEqual(['Hi', 'Hello there']);
    expect(messages[1]?.reasoning).toEqual([{ text: 'They greet me' }]);
  });
});

describe('GET …/events on a connection', () => {
  it("carries the middleware's headers and sends the stored messages whole", async () => {
    server = await startTestServer(withCors);
    await server.postMessage('c1', 'Hi');
    const response = await server.request('/v1/conversations/c1/events', { headers: { origin: PAGE } });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    const reader = new SseReader(response);
    const events = [await reader.next(), await reader.next()];
    expect(
      events.map((event) => [
        event?.id?.split('-')[0],
        (parse(event as SseEvent) as ConversationMessage).content,
      ]),
    ).toEqual([
      ['1', 'Hi'],
      ['2', 'Hello there'],
    ]);
    expect((parse(events[1] as SseEvent) as ConversationMessage).reasoning).toEqual([
      { text: 'They greet me' },
    ]);
    await reader.close();
  });
});
