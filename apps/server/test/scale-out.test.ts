import { randomUUID } from 'node:crypto';
import type { ConversationMessage } from '@cairn/core';
import { createPostgresConversationStore } from '@cairn/store-postgres';
import type { ScriptTurn } from '@cairn/testing';
import pg from 'pg';
import { afterEach, describe, expect, inject, it, onTestFinished } from 'vitest';
import { createPostgresEventBus } from '../src/events/postgres-event-bus.js';
import { createPostgresTurnLock } from '../src/turn-lock/postgres-turn-lock.js';
import { advisoryLockHolder } from './support/advisory-lock-holder.js';
import { jsonBody } from './support/json-body.js';
import { SseReader } from './support/read-sse.js';
import { startTestServer, type TestServer } from './support/start-test-server.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A server instance as another process would be: its own store pool, LISTEN connection and lock pool. */
async function instance(turns: ScriptTurn[]) {
  const connectionString = inject('databaseUrl');
  const turnLock = createPostgresTurnLock({ connectionString });
  const server = await startTestServer({
    turns,
    store: createPostgresConversationStore({ connectionString }),
    events: await createPostgresEventBus({ connectionString }),
    turnLock,
  });
  servers.push(server);
  return Object.assign(server, { turnLock });
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
    const events = await reader.readUntil((event) => event.id?.startsWith('2-') === true);
    const messages = events.filter((event) => event.event === 'message');
    expect(messages.map((event) => event.id?.split('-')[0])).toEqual(['1', '2']);
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
    // A's question is stored under the conversation's lock, which A holds until its slow answer.
    await expect.poll(async () => (await a.store.load(id)).length).toBe(1);
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

  it('DELETE on A ends the /events streams of that conversation on B with `event: deleted`', async () => {
    const a = await instance([{ text: 'Answered on A.' }, { text: 'A new conversation.' }]);
    const b = await instance([]);
    const id = `c-${randomUUID()}`;
    await a.postMessage(id, 'Hello');
    const reader = new SseReader(await b.request(`/v1/conversations/${id}/events`));
    const before = await reader.take(2);
    expect(before.map((event) => event.event)).toEqual(['message', 'message']);

    expect((await a.request(`/v1/conversations/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await reader.next()).toEqual({ event: 'deleted', data: JSON.stringify({ conversationId: id }) });
    expect(await reader.next()).toBeUndefined();

    // Resuming on B after the id was used again on A: `deleted`, never the new conversation's messages.
    await a.postMessage(id, 'Hello again');
    const resumed = new SseReader(
      await b.request(`/v1/conversations/${id}/events`, {
        headers: { 'last-event-id': before[1]?.id ?? '' },
      }),
    );
    expect(await resumed.readUntil(() => false)).toEqual([
      { event: 'deleted', data: JSON.stringify({ conversationId: id }) },
    ]);
  });

  it('a turn whose lock is lost mid-turn (its backend terminated) ends aborted, and the store says so', async () => {
    const a = await instance([{ text: 'never said', delayMs: 30_000 }]);
    const admin = new pg.Client({ connectionString: inject('databaseUrl') });
    await admin.connect();
    onTestFinished(() => admin.end());
    const id = `c-${randomUUID()}`;
    const pending = a.postMessage(id, 'Hello');
    // The turn holds the lock and has started: its user message is stored.
    await expect.poll(() => advisoryLockHolder(admin, id), { timeout: 10_000 }).toEqual(expect.any(Number));
    await expect.poll(async () => (await a.store.load(id)).length, { timeout: 10_000 }).toBe(1);
    // With a timeout, pg_terminate_backend waits for the backend to exit: until then its locks stay listed.
    await admin.query('SELECT pg_terminate_backend($1, 10000)', [await advisoryLockHolder(admin, id)]);

    // Long before the model would answer (the test would time out first).
    const result = await jsonBody<{ success: boolean; error?: { code: string } }>(await pending);
    expect(result).toMatchObject({ success: false, error: { code: 'LLM_ABORTED' } });
    const stored: ConversationMessage[] = await a.store.load(id);
    expect(stored.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(stored.at(-1)).toMatchObject({ partType: 'error', errorCode: 'LLM_ABORTED' });
    // The conversation is free again, for this instance and any other.
    expect(await advisoryLockHolder(admin, id)).toBeUndefined();
    expect(await a.turnLock.run(id, async () => 'free')).toBe('free');
  });

  it('/readyz reports the event bus and the turn lock besides the store', async () => {
    const a = await instance([]);
    expect((await a.request('/readyz')).status).toBe(200);
    await a.events.close();
    const noBus = await a.request('/readyz');
    expect(noBus.status).toBe(503);
    expect(await jsonBody(noBus)).toEqual({
      error: { code: 'STORE_UNAVAILABLE', message: 'not ready: events' },
    });
    await a.turnLock.close();
    const neither = await a.request('/readyz');
    expect(neither.status).toBe(503);
    expect(await jsonBody(neither)).toEqual({
      error: { code: 'STORE_UNAVAILABLE', message: 'not ready: events, turnLock' },
    });
  });
});
