import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationEventBus } from '../src/events/conversation-events.js';
import { SseReader } from './support/read-sse.js';
import { startTestServer, type TestServer, waitFor } from './support/start-test-server.js';

let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const openEvents = async (server: TestServer, query = '', headers: Record<string, string> = {}) => {
  const response = await server.request(`/v1/conversations/c1/events${query}`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  return new SseReader(response);
};

// Counts the live subscriptions, to see a stream let go of its own.
function countSubscriptions(events: ConversationEventBus): () => number {
  let live = 0;
  const subscribe = events.subscribe.bind(events);
  events.subscribe = (conversationId, listener) => {
    live += 1;
    const unsubscribe = subscribe(conversationId, listener);
    return () => {
      live -= 1;
      unsubscribe();
    };
  };
  return () => live;
}

describe('GET /v1/conversations/:id/events', () => {
  it('resumes after Last-Event-ID with no gap and no duplicate, then follows live turns', async () => {
    server = await startTestServer({ turns: [{ text: 'one' }, { text: 'two' }, { text: 'three' }] });
    const liveSubscriptions = countSubscriptions(server.events);
    await server.postMessage('c1', 'first');

    const first = await openEvents(server);
    const initial = await first.take(2);
    expect(initial.map((event) => [event.event, event.id])).toEqual([
      ['message', '1'],
      ['message', '2'],
    ]);
    expect(JSON.parse(initial[1]?.data ?? '{}')).toMatchObject({ seq: 2, content: 'one' });
    await first.close();
    await waitFor(() => liveSubscriptions() === 0);

    await server.postMessage('c1', 'second');
    const resumed = await openEvents(server, '', { 'last-event-id': '2' });
    expect((await resumed.take(2)).map((event) => event.id)).toEqual(['3', '4']);
    await server.postMessage('c1', 'third');
    const live = await resumed.take(2);
    expect(live.map((event) => event.id)).toEqual(['5', '6']);
    expect(JSON.parse(live[1]?.data ?? '{}')).toMatchObject({ role: 'assistant', content: 'three' });
    await resumed.close();
  });

  it('starts at fromSeq, and lets Last-Event-ID win over it', async () => {
    server = await startTestServer({ turns: [{ text: 'one' }, { text: 'two' }] });
    await server.postMessage('c1', 'first');
    await server.postMessage('c1', 'second');
    const fromQuery = await openEvents(server, '?fromSeq=3');
    expect((await fromQuery.take(2)).map((event) => event.id)).toEqual(['3', '4']);
    await fromQuery.close();
    const fromHeader = await openEvents(server, '?fromSeq=1', { 'last-event-id': '3' });
    expect((await fromHeader.take(1)).map((event) => event.id)).toEqual(['4']);
    await fromHeader.close();
  });

  it('waits for the first message of a conversation that has none yet', async () => {
    server = await startTestServer({ turns: [{ text: 'hello' }] });
    const stream = await openEvents(server);
    await server.postMessage('c1', 'first');
    expect((await stream.take(2)).map((event) => event.id)).toEqual(['1', '2']);
    await stream.close();
  });

  it('sends each message once when change notices pile up or repeat', async () => {
    server = await startTestServer({ turns: [{ text: 'one' }] });
    const stream = await openEvents(server);
    await server.postMessage('c1', 'first');
    for (const lastSeq of [2, 2, -1, 1]) await server.events.publish({ conversationId: 'c1', lastSeq });
    await server.events.publish({ conversationId: 'c1', lastSeq: -1 });
    expect((await stream.take(2)).map((event) => event.id)).toEqual(['1', '2']);
    // A message stored behind the server's back is picked up by the next notice, after the repeats.
    await server.store.append('c1', [
      { id: 'm3', role: 'user', content: 'elsewhere', createdAt: new Date().toISOString() },
    ]);
    await server.events.publish({ conversationId: 'c1', lastSeq: 3 });
    expect((await stream.take(1)).map((event) => event.id)).toEqual(['3']);
    await stream.close();
  });

  it('ends the live streams on abortAll (shutdown)', async () => {
    server = await startTestServer();
    const stream = await openEvents(server);
    server.handle.abortAll();
    expect(await stream.next()).toBeUndefined();
  });
});
