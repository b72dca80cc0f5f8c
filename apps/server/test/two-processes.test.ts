import { randomUUID } from 'node:crypto';
import { createPostgresConversationStore } from '@cairn/store-postgres';
import { type MockProviderServer, startMockProviderServer } from '@cairn/testing';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { SseReader } from './support/read-sse.js';
import {
  type ServerProcess,
  serverEnv,
  startServerProcess,
  TOKEN,
  tempDir,
} from './support/server-process.js';

const processes: ServerProcess[] = [];
let mock: MockProviderServer | undefined;

afterEach(async () => {
  for (const server of processes.splice(0)) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  await mock?.close();
  mock = undefined;
});

/** One `cairn-server --store postgres` process; all of them share the database and the mock model. */
async function serverProcess(): Promise<ServerProcess> {
  if (mock === undefined) throw new Error('start the mock model first');
  const env = serverEnv(tempDir('pg'), {
    CAIRN_API_TOKEN: TOKEN,
    DATABASE_URL: inject('databaseUrl'),
    OPENAI_BASE_URL: mock.baseURL,
    CAIRN_MODEL: 'mock-model',
  });
  // Separate instances (as on separate machines), each a single process: the point is the database.
  const server = await startServerProcess(['--store', 'postgres', '--workers', '1'], env);
  processes.push(server);
  return server;
}

function postTurn(server: ServerProcess, conversationId: string, content: string) {
  return server.request(`/v1/conversations/${conversationId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ content }),
  });
}

/** The last user message a chat request carried: which request the mock is answering. */
function lastUserText(body: unknown): string {
  const messages = (body as { messages?: Array<{ role: string; content: unknown }> }).messages ?? [];
  const user = messages.filter((message) => message.role === 'user').at(-1);
  return typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content);
}

describe('two cairn-server processes on one PostgreSQL', () => {
  it('streams on B the messages of a turn run on A, and serialises one conversation across both', async () => {
    // The first turn is slow, so the second one (posted to the other process) has to wait for its lock.
    mock = await startMockProviderServer({
      provider: 'openai',
      turns: (request) => {
        const asked = lastUserText(request.body);
        return asked.includes('first')
          ? { text: `Answer to: ${asked}`, chunkDelayMs: 150 }
          : { text: `Answer to: ${asked}` };
      },
    });
    const [a, b] = [await serverProcess(), await serverProcess()];
    const id = `c-${randomUUID()}`;
    const feed = new SseReader(await b.request(`/v1/conversations/${id}/events`));

    const first = postTurn(a, id, 'first, on A');
    // A asks the model under the conversation's lock, which it holds until its slow answer ends.
    await expect
      .poll(() => mock?.requests.some((request) => JSON.stringify(request).includes('first, on A')), {
        timeout: 10_000,
      })
      .toBe(true);
    const second = postTurn(b, id, 'second, on B');
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);

    const streamed = await feed.readUntil((event) => event.id?.startsWith('4-') === true);
    const messages = streamed
      .filter((event) => event.event === 'message')
      .map((event) => JSON.parse(event.data) as { role: string; content: string });
    const expected = [
      ['user', 'first, on A'],
      ['assistant', 'Answer to: first, on A'],
      ['user', 'second, on B'],
      ['assistant', 'Answer to: second, on B'],
    ];
    expect(messages.map((message) => [message.role, message.content])).toEqual(expected);

    const store = createPostgresConversationStore({ connectionString: inject('databaseUrl') });
    try {
      const log = await store.load(id);
      expect(log.map((message) => [message.role, message.content])).toEqual(expected);
    } finally {
      await store.close();
    }
    await feed.close();
  });
});
