import { CairnError, type ConversationStore } from '@cairn/core';
import { createMemoryConversationStore } from '@cairn/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/start-test-server.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const SECRET = 'password authentication failed for user "cairn" at db-internal.corp:5432';

// A store whose second append fails the way a database outage does, with the backend's words.
function failingStore(): ConversationStore {
  const store = createMemoryConversationStore();
  let appends = 0;
  return {
    capabilities: store.capabilities,
    append: (...args) => {
      appends += 1;
      if (appends >= 2) {
        return Promise.reject(
          new CairnError('STORE_UNAVAILABLE', `PostgreSQL failed during append: ${SECRET}`),
        );
      }
      return store.append(...args);
    },
    load: (...args) => store.load(...args),
    listConversations: (...args) => store.listConversations(...args),
    deleteConversation: (...args) => store.deleteConversation(...args),
    putBlob: (...args) => store.putBlob(...args),
    getBlob: (...args) => store.getBlob(...args),
    close: () => store.close(),
  };
}

describe('review fixes', () => {
  it('a body that is not declared as JSON is a 415, not an internal error', async () => {
    const server = await startTestServer();
    servers.push(server);
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

  it('a store outage during a turn reaches the client as its code, never the backend’s words (JSON and SSE)', async () => {
    const server = await startTestServer({
      store: failingStore(),
      turns: [{ text: 'answer' }, { text: 'again' }],
    });
    servers.push(server);
    const json = await server.postMessage('c1', 'hi');
    const body = await json.text();
    expect(JSON.parse(body).error).toMatchObject({ code: 'STORE_UNAVAILABLE', message: 'store unavailable' });
    expect(body).not.toContain('db-internal');

    const stream = await server.request('/v1/conversations/c2/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ content: 'hi' }),
    });
    const text = await stream.text();
    expect(text).toContain('event: done');
    expect(text).toContain('STORE_UNAVAILABLE');
    expect(text).not.toContain('db-internal');
  });
});

describe('more review fixes', () => {
  it('refuses a short or spaced API token when the app is made', async () => {
    await expect(startTestServer({ apiToken: '' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(startTestServer({ apiToken: 'has spaces in it, long enough' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });

  it('deletes under the turn lock: a turn posted during a (slow) delete waits for it, then starts afresh', async () => {
    const store = createMemoryConversationStore();
    // Deleting takes a while, as on a big log in a real database.
    const slowDelete: ConversationStore = Object.assign(Object.create(store) as ConversationStore, {
      deleteConversation: async (id: string) => {
        await new Promise((resolve) => setTimeout(resolve, 150));
        return store.deleteConversation(id);
      },
      append: store.append.bind(store),
      load: store.load.bind(store),
      listConversations: store.listConversations.bind(store),
      close: store.close.bind(store),
    });
    const server = await startTestServer({
      store: slowDelete,
      turns: [{ text: 'one' }, { text: 'two', delayMs: 200 }],
    });
    servers.push(server);
    expect((await server.postMessage('c1', 'first')).status).toBe(200);
    const removed = server.request('/v1/conversations/c1', { method: 'DELETE' });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const turn = await server.postMessage('c1', 'second');
    expect((await removed).status).toBe(204);
    expect(turn.status).toBe(200);
    // The new turn came after the delete: never an answer left without its question.
    expect((await store.load('c1')).map((message) => `${message.role}:${message.content}`)).toEqual([
      'user:second',
      'assistant:two',
    ]);
  });
});
