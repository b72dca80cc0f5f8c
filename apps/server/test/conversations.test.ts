import type { ConversationMessage, ConversationPage, ConversationStore } from '@cairn/core';
import { createMemoryConversationStore } from '@cairn/storage';
import { createGate } from '@cairn/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorCode, jsonBody } from './support/json-body.js';
import { SseReader } from './support/read-sse.js';
import { startTestServer, type TestServer, waitFor } from './support/start-test-server.js';

let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const create = (server: TestServer, body?: unknown) =>
  server.request('/v1/conversations', {
    method: 'POST',
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });

describe('POST /v1/conversations', () => {
  it('generates an id, takes a given one, and refuses an id that already has messages', async () => {
    server = await startTestServer({ turns: [{ text: 'ok' }] });
    const generated = await create(server);
    expect(generated.status).toBe(201);
    expect((await jsonBody<{ id: string }>(generated)).id).toMatch(/^c-[0-9a-f-]{36}$/);
    expect(await jsonBody(await create(server, { id: 'mine' }))).toEqual({ id: 'mine' });
    // Nothing is stored until the first message.
    expect(await server.store.listConversations()).toEqual({ conversations: [] });
    await server.postMessage('mine', 'Hi');
    const again = await create(server, { id: 'mine' });
    expect(again.status).toBe(409);
    expect(await errorCode(again)).toBe('CONVERSATION_EXISTS');
  });

  it('looks up only an id the client chose: a generated one costs no store read', async () => {
    const store = createMemoryConversationStore();
    const load = vi.spyOn(store, 'load');
    server = await startTestServer({ store });
    expect((await create(server)).status).toBe(201);
    expect(load).not.toHaveBeenCalled();
    expect((await create(server, { id: 'chosen' })).status).toBe(201);
    expect(load.mock.calls.map(([id]) => id)).toEqual(['chosen']);
  });
});

describe('GET /v1/conversations', () => {
  it('pages the conversations, most recently updated first', async () => {
    server = await startTestServer({ turns: [{ text: 'a' }, { text: 'b' }] });
    await server.postMessage('first', 'Hello first');
    await server.postMessage('second', 'Hello second');
    const page = await jsonBody<ConversationPage>(await server.request('/v1/conversations?limit=1'));
    expect(page.conversations).toEqual([
      expect.objectContaining({ id: 'second', messageCount: 2, lastSeq: 2, title: 'Hello second' }),
    ]);
    expect(page.nextCursor).toEqual(expect.any(String));
    const next = await jsonBody<ConversationPage>(
      await server.request(`/v1/conversations?limit=1&cursor=${encodeURIComponent(page.nextCursor ?? '')}`),
    );
    expect(next.conversations.map((summary) => summary.id)).toEqual(['first']);
    expect(next.nextCursor).toBeUndefined();
  });

  it('answers a bad cursor 400', async () => {
    server = await startTestServer();
    const response = await server.request('/v1/conversations?cursor=garbage');
    expect(response.status).toBe(400);
    expect(await errorCode(response)).toBe('INVALID_ARGUMENT');
  });
});

const rename = (server: TestServer, id: string, body: unknown) =>
  server.request(`/v1/conversations/${id}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const searchIds = async (server: TestServer, query: string) =>
  (await jsonBody<ConversationPage>(await server.request(`/v1/conversations?${query}`))).conversations.map(
    (summary) => summary.id,
  );

describe('PATCH /v1/conversations/:id', () => {
  it('renames: 200 with the listing row, the latest rename wins, and the log holds a title record', async () => {
    server = await startTestServer({ turns: [{ text: 'Sure' }] });
    await server.postMessage('c1', 'What should I pack?');
    const renamed = await rename(server, 'c1', { title: '  Packing list ' });
    expect(renamed.status).toBe(200);
    expect(await jsonBody(renamed)).toEqual({
      id: 'c1',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      messageCount: 3,
      lastSeq: 3,
      title: 'Packing list',
    });
    expect((await rename(server, 'c1', { title: 'Trip to Oslo' })).status).toBe(200);
    const { conversations } = await jsonBody<ConversationPage>(await server.request('/v1/conversations'));
    expect(conversations).toEqual([expect.objectContaining({ id: 'c1', title: 'Trip to Oslo', lastSeq: 4 })]);
    const [last] = await server.store.load('c1', { direction: 'backward', limit: 1 });
    expect(last).toMatchObject({ role: 'system', partType: 'title', content: 'Trip to Oslo', seq: 4 });
  });

  it('answers 400 for a title empty, too long, of two lines or missing, and for a bad id', async () => {
    server = await startTestServer({ turns: [{ text: 'ok' }] });
    await server.postMessage('c1', 'Hi');
    for (const body of [
      { title: '   ' },
      { title: 'x'.repeat(201) },
      { title: 'one\ntwo' },
      {},
      { title: 7 },
      'not json',
    ]) {
      const response = await rename(server, 'c1', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await errorCode(response)).toBe('INVALID_ARGUMENT');
    }
    // 200 characters (code points) are allowed, even where they take 400 UTF-16 units.
    expect((await rename(server, 'c1', { title: '😀'.repeat(200) })).status).toBe(200);
    const badId = await rename(server, 'a%20b', { title: 'x' });
    expect(badId.status).toBe(400);
    expect(await errorCode(badId)).toBe('INVALID_ID');
    expect(await server.store.load('c1')).toHaveLength(3);
  });

  it('answers 404 for a conversation without messages, and creates nothing', async () => {
    server = await startTestServer();
    const response = await rename(server, 'nobody', { title: 'Ghost' });
    expect(response.status).toBe(404);
    expect(await errorCode(response)).toBe('STORE_NOT_FOUND');
    expect(await server.store.listConversations()).toEqual({ conversations: [] });
  });

  it('reaches a follower of /events as a message carrying the title record', async () => {
    server = await startTestServer({ turns: [{ text: 'ok' }] });
    await server.postMessage('c1', 'Hi');
    const events = await server.request('/v1/conversations/c1/events');
    const follower = new SseReader(events);
    expect((await follower.take(2)).map((event) => event.event)).toEqual(['message', 'message']);
    expect((await rename(server, 'c1', { title: 'Renamed elsewhere' })).status).toBe(200);
    const [delivered] = await follower.take(1);
    expect(delivered?.event).toBe('message');
    expect(JSON.parse(delivered?.data ?? '{}')).toMatchObject({
      seq: 3,
      role: 'system',
      partType: 'title',
      content: 'Renamed elsewhere',
    });
    await follower.close();
  });
});

describe('GET /v1/conversations?q=', () => {
  it('finds conversations by title, user or assistant text and a new title, case-insensitively and literally', async () => {
    server = await startTestServer({
      turns: [{ text: 'Try the FROBNICATOR' }, { text: 'ok' }, { text: 'ok' }],
    });
    await server.postMessage('oslo', 'Plan the Oslo trip');
    await server.postMessage('plain', 'Hello');
    await server.postMessage('sale', 'Prices: 50% off_items');
    expect(await searchIds(server, 'q=oslo')).toEqual(['oslo']);
    expect(await searchIds(server, 'q=frobnicator')).toEqual(['oslo']);
    expect(await searchIds(server, 'q=HELLO')).toEqual(['plain']);
    expect(await searchIds(server, `q=${encodeURIComponent('50%')}`)).toEqual(['sale']);
    expect(await searchIds(server, `q=${encodeURIComponent('f_i')}`)).toEqual(['sale']);
    expect(await searchIds(server, 'q=nothing-like-this')).toEqual([]);
    await rename(server, 'plain', { title: 'Zebra notes' });
    expect(await searchIds(server, 'q=zebra')).toEqual(['plain']);
    // Without q the listing is unchanged: every conversation, newest first.
    expect(await searchIds(server, '')).toEqual(['plain', 'sale', 'oslo']);
  });

  it('pages a search with nextCursor', async () => {
    server = await startTestServer({ turns: [{ text: 'ok' }, { text: 'ok' }, { text: 'ok' }] });
    await server.postMessage('a', 'needle one');
    await server.postMessage('b', 'hay');
    await server.postMessage('c', 'needle two');
    const first = await jsonBody<ConversationPage>(
      await server.request('/v1/conversations?q=needle&limit=1'),
    );
    expect(first.conversations.map((summary) => summary.id)).toEqual(['c']);
    expect(first.nextCursor).toEqual(expect.any(String));
    const cursor = encodeURIComponent(first.nextCursor ?? '');
    const next = await jsonBody<ConversationPage>(
      await server.request(`/v1/conversations?q=needle&limit=1&cursor=${cursor}`),
    );
    expect(next.conversations.map((summary) => summary.id)).toEqual(['a']);
    expect(next.nextCursor).toBeUndefined();
  });

  it('answers 400 for an empty or too long q', async () => {
    server = await startTestServer();
    for (const q of ['', 'x'.repeat(201)]) {
      const response = await server.request(`/v1/conversations?q=${q}`);
      expect(response.status).toBe(400);
      expect(await errorCode(response)).toBe('INVALID_ARGUMENT');
    }
  });

  it('answers 501 UNSUPPORTED_OPERATION when the store cannot search', async () => {
    const store: ConversationStore = createMemoryConversationStore();
    Object.assign(store, { capabilities: { persistent: false, concurrentInstances: false } });
    server = await startTestServer({ store });
    const response = await server.request('/v1/conversations?q=anything');
    expect(response.status).toBe(501);
    expect(await errorCode(response)).toBe('UNSUPPORTED_OPERATION');
  });
});

describe('GET /v1/conversations/:id/messages', () => {
  it('returns the log, a range of it, or the display view; 404 for an unknown conversation', async () => {
    server = await startTestServer({ turns: [{ text: 'one' }, { text: 'two' }] });
    await server.postMessage('c1', 'Hi');
    await server.postMessage('c1', 'Again');
    const seqs = async (query: string) => {
      const response = await server?.request(`/v1/conversations/c1/messages${query}`);
      const body = await jsonBody<{ messages: ConversationMessage[] }>(response ?? Response.error());
      return body.messages.map((message) => message.seq);
    };
    expect(await seqs('')).toEqual([1, 2, 3, 4]);
    expect(await seqs('?fromSeq=2&limit=2')).toEqual([2, 3]);
    expect(await seqs('?view=display&fromSeq=3')).toEqual([3, 4]);
    expect(await seqs('?fromSeq=9')).toEqual([]);
    const unknown = await server.request('/v1/conversations/nope/messages');
    expect(unknown.status).toBe(404);
    expect(await errorCode(unknown)).toBe('STORE_NOT_FOUND');
  });
});

describe('DELETE /v1/conversations/:id', () => {
  it('deletes (204), then answers 404', async () => {
    server = await startTestServer({ turns: [{ text: 'ok' }] });
    await server.postMessage('c1', 'Hi');
    const deleted = await server.request('/v1/conversations/c1', { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(await server.store.load('c1')).toEqual([]);
    expect((await server.request('/v1/conversations/c1', { method: 'DELETE' })).status).toBe(404);
    expect((await server.request('/v1/conversations/c1/messages')).status).toBe(404);
  });

  it('refuses (409) while a turn runs on the conversation here', async () => {
    server = await startTestServer({ turns: [{ text: 'slow', delayMs: 300 }] });
    const pending = server.postMessage('c1', 'Hi');
    await waitFor(() => server?.handle.activeTurns() === 1);
    const refused = await server.request('/v1/conversations/c1', { method: 'DELETE' });
    expect(refused.status).toBe(409);
    expect(await errorCode(refused)).toBe('TURN_RUNNING');
    await pending;
    expect((await server.request('/v1/conversations/c1', { method: 'DELETE' })).status).toBe(204);
  });

  it('deletes under the turn lock: a turn posted during a (slow) delete waits for it, then starts afresh', async () => {
    const store = createMemoryConversationStore();
    // The delete holds until the turn has been posted (as on a big log in a real database).
    const deleting = createGate();
    const finishDelete = createGate();
    const slowDelete: ConversationStore = Object.assign(Object.create(store) as ConversationStore, {
      deleteConversation: async (id: string) => {
        deleting.open();
        await finishDelete.promise;
        return store.deleteConversation(id);
      },
      append: store.append.bind(store),
      load: store.load.bind(store),
      listConversations: store.listConversations.bind(store),
      close: store.close.bind(store),
    });
    server = await startTestServer({
      store: slowDelete,
      turns: [{ text: 'one' }, { text: 'two', delayMs: 200 }],
    });
    expect((await server.postMessage('c1', 'first')).status).toBe(200);
    const removed = server.request('/v1/conversations/c1', { method: 'DELETE' });
    await deleting.promise;
    const turn = server.postMessage('c1', 'second');
    await waitFor(() => server?.handle.activeTurns() === 1);
    finishDelete.open();
    expect((await removed).status).toBe(204);
    expect((await turn).status).toBe(200);
    // The new turn came after the delete: never an answer left without its question.
    expect((await store.load('c1')).map((message) => `${message.role}:${message.content}`)).toEqual([
      'user:second',
      'assistant:two',
    ]);
  });
});

describe('numbers in query strings', () => {
  it('take only plain decimal integers: no exponent, hex, sign, fraction, spaces or empty value (400)', async () => {
    // 40-odd requests at once: the rate limit (20/s, burst 40) is not what this test is about.
    server = await startTestServer({ turns: [{ text: 'ok' }], rateLimit: false });
    await server.postMessage('c1', 'Hi');
    const bad = ['1e1', '%2012%20', '12%20', '0x10', '+5', '-1', '1.0', '1.5', '', 'Infinity', '0b1', '１２'];
    for (const value of bad) {
      for (const path of [
        `/v1/conversations?limit=${value}`,
        `/v1/conversations/c1/messages?limit=${value}`,
        `/v1/conversations/c1/messages?fromSeq=${value}`,
      ]) {
        const response = await server.request(path);
        expect(response.status, path).toBe(400);
        expect(await errorCode(response), path).toBe('INVALID_ARGUMENT');
      }
    }
    // Out of range is still refused; plain numbers (leading zeros included) are taken.
    expect((await server.request('/v1/conversations?limit=101')).status).toBe(400);
    expect((await server.request('/v1/conversations/c1/messages?limit=0')).status).toBe(400);
    const page = await jsonBody<{ messages: ConversationMessage[] }>(
      await server.request('/v1/conversations/c1/messages?fromSeq=02&limit=1'),
    );
    expect(page.messages.map((message) => message.seq)).toEqual([2]);
    const list = await jsonBody<ConversationPage>(await server.request('/v1/conversations?limit=1'));
    expect(list.conversations).toHaveLength(1);
  });
});
