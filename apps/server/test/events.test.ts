import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationEventBus } from '../src/events/conversation-events.js';
import { errorCode } from './support/json-body.js';
import { type SseEvent, SseReader } from './support/read-sse.js';
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

/** The seq of an `/events` message (its `id` is `<seq>-<epoch>`). */
const seqOf = (event: SseEvent) => event.id?.split('-')[0];

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
    expect(initial.map((event) => [event.event, seqOf(event)])).toEqual([
      ['message', '1'],
      ['message', '2'],
    ]);
    expect(JSON.parse(initial[1]?.data ?? '{}')).toMatchObject({ seq: 2, content: 'one' });
    await first.close();
    await waitFor(() => liveSubscriptions() === 0);

    await server.postMessage('c1', 'second');
    // What EventSource sends back: the last `id` it received.
    const resumed = await openEvents(server, '', { 'last-event-id': initial[1]?.id ?? '' });
    expect((await resumed.take(2)).map(seqOf)).toEqual(['3', '4']);
    await server.postMessage('c1', 'third');
    const live = await resumed.take(2);
    expect(live.map(seqOf)).toEqual(['5', '6']);
    expect(JSON.parse(live[1]?.data ?? '{}')).toMatchObject({ role: 'assistant', content: 'three' });
    await resumed.close();
  });

  it('starts at fromSeq, and lets Last-Event-ID win over it', async () => {
    server = await startTestServer({ turns: [{ text: 'one' }, { text: 'two' }] });
    await server.postMessage('c1', 'first');
    await server.postMessage('c1', 'second');
    const fromQuery = await openEvents(server, '?fromSeq=3');
    expect((await fromQuery.take(2)).map(seqOf)).toEqual(['3', '4']);
    await fromQuery.close();
    const fromHeader = await openEvents(server, '?fromSeq=1', { 'last-event-id': '3' });
    expect((await fromHeader.take(1)).map(seqOf)).toEqual(['4']);
    await fromHeader.close();
  });

  it('waits for the first message of a conversation that has none yet', async () => {
    server = await startTestServer({ turns: [{ text: 'hello' }] });
    const stream = await openEvents(server);
    await server.postMessage('c1', 'first');
    expect((await stream.take(2)).map(seqOf)).toEqual(['1', '2']);
    await stream.close();
  });

  it('sends each message once when change notices pile up or repeat', async () => {
    server = await startTestServer({ turns: [{ text: 'one' }] });
    const stream = await openEvents(server);
    await server.postMessage('c1', 'first');
    for (const lastSeq of [2, 2, -1, 1]) await server.events.publish({ conversationId: 'c1', lastSeq });
    await server.events.publish({ conversationId: 'c1', lastSeq: -1 });
    expect((await stream.take(2)).map(seqOf)).toEqual(['1', '2']);
    // A message stored behind the server's back is picked up by the next notice, after the repeats.
    await server.store.append('c1', [
      { id: 'm3', role: 'user', content: 'elsewhere', createdAt: new Date().toISOString() },
    ]);
    await server.events.publish({ conversationId: 'c1', lastSeq: 3 });
    expect((await stream.take(1)).map(seqOf)).toEqual(['3']);
    await stream.close();
  });

  it('ends the live streams on abortAll (shutdown)', async () => {
    server = await startTestServer();
    const stream = await openEvents(server);
    server.handle.abortAll();
    expect(await stream.next()).toBeUndefined();
  });

  it('ends the open streams of a deleted conversation with `event: deleted`', async () => {
    server = await startTestServer({ turns: [{ text: 'one' }] });
    const liveSubscriptions = countSubscriptions(server.events);
    await server.postMessage('c1', 'first');
    const streams = [await openEvents(server), await openEvents(server, '?fromSeq=2')];
    expect((await streams[0]?.take(2))?.map(seqOf)).toEqual(['1', '2']);
    expect((await streams[1]?.take(1))?.map(seqOf)).toEqual(['2']);
    expect((await server.request('/v1/conversations/c1', { method: 'DELETE' })).status).toBe(204);
    for (const stream of streams) {
      expect(await stream?.next()).toEqual({
        event: 'deleted',
        data: JSON.stringify({ conversationId: 'c1' }),
      });
      expect(await stream?.next()).toBeUndefined();
    }
    await waitFor(() => liveSubscriptions() === 0);
  });

  it('never resumes a client into a re-created conversation: it gets `deleted`, a new stream gets the new history', async () => {
    server = await startTestServer({
      turns: [{ text: 'old answer' }, { text: 'new answer' }, { text: 'another new answer' }],
    });
    await server.postMessage('c1', 'old question');
    const first = await openEvents(server);
    const old = await first.take(2);
    await first.close();
    const lastId = old[1]?.id ?? '';
    expect(lastId).toMatch(/^2-[0-9a-f]{8}$/);

    expect((await server.request('/v1/conversations/c1', { method: 'DELETE' })).status).toBe(204);
    // Deleted, not re-created yet: nothing to resume.
    const early = await openEvents(server, '', { 'last-event-id': lastId });
    expect(await early.readUntil(() => false)).toEqual([
      { event: 'deleted', data: JSON.stringify({ conversationId: 'c1' }) },
    ]);
    // Re-created, and past the seq the client has: seq 3 and 4 are the new conversation's, not the next of the old.
    await server.postMessage('c1', 'new question');
    await server.postMessage('c1', 'another new question');
    const resumed = await openEvents(server, '', { 'last-event-id': lastId });
    expect(await resumed.readUntil(() => false)).toEqual([
      { event: 'deleted', data: JSON.stringify({ conversationId: 'c1' }) },
    ]);

    const fresh = await openEvents(server);
    const history = await fresh.take(4);
    expect(history.map((event) => JSON.parse(event.data).content)).toEqual([
      'new question',
      'new answer',
      'another new question',
      'another new answer',
    ]);
    // A new epoch: the old id can never be taken for one of these.
    expect(history[0]?.id?.split('-')[1]).not.toBe(lastId.split('-')[1]);
    await fresh.close();
  });

  it('accepts only plain decimal seqs in fromSeq and Last-Event-ID', async () => {
    server = await startTestServer();
    for (const query of [
      '?fromSeq=1e0',
      '?fromSeq=%201',
      '?fromSeq=0x1',
      '?fromSeq=1.0',
      '?fromSeq=',
      '?fromSeq=-1',
      '?fromSeq=0',
    ]) {
      const response = await server.request(`/v1/conversations/c1/events${query}`);
      expect(response.status, query).toBe(400);
      expect(await errorCode(response), query).toBe('INVALID_ARGUMENT');
    }
    for (const lastEventId of ['1e0', '0x1', '2-XYZ', '2-0123abcd-', '-0123abcd']) {
      const response = await server.request('/v1/conversations/c1/events', {
        headers: { 'last-event-id': lastEventId },
      });
      expect(response.status, lastEventId).toBe(400);
    }
  });
});
