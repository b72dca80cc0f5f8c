import { CairnError, type ConversationStore } from '@cairn/core';
import { createMemoryConversationStore } from '@cairn/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/start-test-server.js';

let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
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

describe('store outages', () => {
  it('a store outage during a turn reaches the client as its code, never the backend’s words (JSON and SSE)', async () => {
    server = await startTestServer({
      store: failingStore(),
      turns: [{ text: 'answer' }, { text: 'again' }],
    });
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
