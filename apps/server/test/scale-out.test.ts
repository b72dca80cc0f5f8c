import { randomUUID } from 'node:crypto';
import { createPostgresConversationStore } from '@cairn/store-postgres';
import type { ScriptTurn } from '@cairn/testing';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createPostgresEventBus } from '../src/events/postgres-event-bus.js';
import { createPostgresTurnLock } from '../src/turns/postgres-turn-lock.js';
import { SseReader } from './support/read-sse.js';
import { startTestServer, type TestServer } from './support/start-test-server.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A server instance as another process would be: its own store pool, LISTEN connection and lock pool. */
async function instance(turns: ScriptTurn[]) {
  const connectionString = inject('databaseUrl');
  const server = await startTestServer({
    turns,
    store: createPostgresConversationStore({ connectionString }),
    events: await createPostgresEventBus({ connectionString }),
    turnLock: createPostgresTurnLock({ connectionString }),
  });
  servers.push(server);
  return server;
}

describe('two server instances on one PostgreSQL', () => {
  it('a client streaming /events from B sees the messages of a turn run on A (LISTEN/NOTIFY)', async () => {
    const a = await instance([{ text: 'Answered on A.' }]);
    const b = await instance([]);
    const id = `c-${randomUUID()}`;
    const stream = await b.request(`/v1/conversations/${id}/events`, {
      headers: { accept: 'text/event-stream' },
    });
    expect(stream.status).toBe(200);
    const reader = new SseReader(stream);

    const turn = await a.postMessage(id, 'Hello from a client of A');
    expect(turn.status).toBe(200);
    const events = await reader.readUntil((event) => event.id === '2');
    const messages = events.filter((event) => event.event === 'message');
    expect(messages.map((event) => event.id)).toEqual(['1', '2']);
    expect(JSON.parse(messages[1]?.data as string)).toMatchObject({
      role: 'assistant',
      content: 'Answered on A.',
    });
  });

  it('serialises one conversation’s turns across instances (advisory lock): no interleaving', async () => {
    const a = await instance([{ text: 'A, slowly.', delayMs: 400 }]);
    const b = await instance([{ text: 'B answers.' }]);
    const id = `c-${randomUUID()}`;
    const first = a.postMessage(id, 'first, on A');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = b.postMessage(id, 'second, on B');
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    const log = await a.store.load(id);
    expect(log.map((message) => `${message.role}:${message.content}`)).toEqual([
      'user:first, on A',
      'assistant:A, slowly.',
      'user:second, on B',
      'assistant:B answers.',
    ]);
  });
});
