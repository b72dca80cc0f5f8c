import type { ConversationMessage } from '@cairn/core';
import { createGate } from '@cairn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createInProcessTurnLock } from '../src/turn-lock/in-process-turn-lock.js';
import { jsonBody } from './support/json-body.js';
import { SseReader } from './support/read-sse.js';
import { startTestServer, type TestServer, waitFor } from './support/start-test-server.js';

let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function streamMessage(server: TestServer, conversationId: string, content: string) {
  return server.request(`/v1/conversations/${conversationId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ content }),
  });
}

describe('POST /v1/conversations/:id/messages as JSON', () => {
  it('runs the turn and answers its result; the first message creates the conversation', async () => {
    server = await startTestServer({
      turns: [{ text: 'Hello there', usage: { inputTokens: 5, outputTokens: 2 } }],
    });
    const response = await server.postMessage('c1', 'Hi');
    expect(response.status).toBe(200);
    const body = await jsonBody<{ error?: unknown }>(response);
    expect(body).toMatchObject({
      conversationId: 'c1',
      success: true,
      message: { role: 'assistant', content: 'Hello there', seq: 2 },
      usage: { total: { inputTokens: 5, outputTokens: 2 } },
    });
    expect(body.error).toBeUndefined();
    const stored = await server.store.load('c1');
    expect(stored.map((message) => [message.seq, message.role, message.content])).toEqual([
      [1, 'user', 'Hi'],
      [2, 'assistant', 'Hello there'],
    ]);
  });

  it('answers a failed turn with success false and the CairnError, stored as an error message', async () => {
    server = await startTestServer({ turns: [{ fault: { status: 401 } }] });
    const body = await jsonBody(await server.postMessage('c1', 'Hi'));
    expect(body).toMatchObject({
      success: false,
      error: { name: 'CairnError', code: 'LLM_AUTH' },
      message: { partType: 'error', errorCode: 'LLM_AUTH' },
    });
  });
});

describe('POST /v1/conversations/:id/messages as an event stream', () => {
  it('streams agent_output deltas, each stored message with its seq as id, then done', async () => {
    server = await startTestServer({ turns: [{ text: 'Hello there', chunkSize: 3 }] });
    const response = await streamMessage(server, 'c1', 'Hi');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = await new SseReader(response).readUntil((event) => event.event === 'done');
    const deltas = events
      .filter((event) => event.event === 'agent_output')
      .map((event) => JSON.parse(event.data))
      .filter((output) => output.type === 'text_delta')
      .map((output) => output.delta);
    expect(deltas).toEqual(['Hel', 'lo ', 'the', 're']);
    const messages = events.filter((event) => event.event === 'message');
    expect(messages.map((event) => event.id)).toEqual(['1', '2']);
    expect(messages.map((event) => (JSON.parse(event.data) as ConversationMessage).role)).toEqual([
      'user',
      'assistant',
    ]);
    expect(events.at(-1)).toEqual({ event: 'done', data: JSON.stringify({ success: true }) });
  });

  it('keeps the turn running and storing when the client disconnects', async () => {
    server = await startTestServer({ turns: [{ text: 'Still here', delayMs: 200 }] });
    const reader = new SseReader(await streamMessage(server, 'c1', 'Hi'));
    expect((await reader.next())?.id).toBe('1');
    await reader.close();
    await waitFor(() => server?.handle.activeTurns() === 0);
    const stored = await server.store.load('c1');
    expect(stored.at(-1)).toMatchObject({ seq: 2, role: 'assistant', content: 'Still here' });
  });
});

describe('POST /v1/conversations/:id/abort', () => {
  it('aborts the running turn: done with success false, LLM_ABORTED stored', async () => {
    server = await startTestServer({ turns: [{ text: 'too late', delayMs: 10_000 }] });
    const reader = new SseReader(await streamMessage(server, 'c1', 'Hi'));
    expect((await reader.next())?.id).toBe('1');
    const abort = await server.request('/v1/conversations/c1/abort', { method: 'POST' });
    expect(abort.status).toBe(202);
    expect(await jsonBody(abort)).toEqual({ aborted: true });
    const events = await reader.readUntil((event) => event.event === 'done');
    const done = JSON.parse(events.at(-1)?.data ?? '{}');
    expect(done).toMatchObject({ success: false, error: { code: 'LLM_ABORTED' } });
    const stored = await server.store.load('c1');
    expect(stored.at(-1)).toMatchObject({ role: 'assistant', partType: 'error', errorCode: 'LLM_ABORTED' });
  });

  it('aborts only the running turn: the one queued behind it then runs', async () => {
    server = await startTestServer({
      turns: [{ text: 'too late', delayMs: 10_000 }, { text: 'second answer' }],
    });
    const running = server.postMessage('c1', 'first');
    await waitFor(() => server?.handle.activeTurns() === 1);
    const queued = server.postMessage('c1', 'second');
    await waitFor(() => server?.handle.activeTurns() === 2);
    const abort = await server.request('/v1/conversations/c1/abort', { method: 'POST' });
    expect(await jsonBody(abort)).toEqual({ aborted: true });
    expect(await jsonBody(await running)).toMatchObject({ success: false, error: { code: 'LLM_ABORTED' } });
    expect(await jsonBody(await queued)).toMatchObject({
      success: true,
      message: { content: 'second answer' },
    });
    const stored = await server.store.load('c1');
    expect(stored.map((message) => [message.role, message.errorCode ?? message.content])).toEqual([
      ['user', 'first'],
      ['assistant', 'LLM_ABORTED'],
      ['user', 'second'],
      ['assistant', 'second answer'],
    ]);
  });

  it('with queued=true also cancels the turns queued behind it, which then store nothing', async () => {
    server = await startTestServer({ turns: [{ text: 'too late', delayMs: 10_000 }] });
    const running = server.postMessage('c1', 'first');
    await waitFor(() => server?.handle.activeTurns() === 1);
    const queued = server.postMessage('c1', 'second');
    await waitFor(() => server?.handle.activeTurns() === 2);
    await server.request('/v1/conversations/c1/abort?queued=true', { method: 'POST' });
    for (const response of await Promise.all([running, queued])) {
      expect(await jsonBody(response)).toMatchObject({ success: false, error: { code: 'LLM_ABORTED' } });
    }
    const stored = await server.store.load('c1');
    expect(stored.map((message) => message.content)).toEqual(['first', expect.any(String)]);
  });

  it('leaves a turn that waits for its lock alone unless queued=true', async () => {
    // Another process's turn holds the lock: the one here waits behind it.
    const turnLock = createInProcessTurnLock();
    const elsewhere = createGate();
    const holding = turnLock.run('c1', () => elsewhere.promise);
    server = await startTestServer({ turnLock, turns: [{ text: 'after the wait' }] });
    const waiting = server.postMessage('c1', 'Hi');
    await waitFor(() => server?.handle.activeTurns() === 1);
    const abort = await server.request('/v1/conversations/c1/abort', { method: 'POST' });
    expect(await jsonBody(abort)).toEqual({ aborted: false });
    elsewhere.open();
    await holding;
    expect(await jsonBody(await waiting)).toMatchObject({
      success: true,
      message: { content: 'after the wait' },
    });
  });

  it('answers aborted false when nothing runs here', async () => {
    server = await startTestServer();
    const response = await server.request('/v1/conversations/c1/abort', { method: 'POST' });
    expect(response.status).toBe(202);
    expect(await jsonBody(response)).toEqual({ aborted: false });
  });

  it('abortAll stops every running turn (shutdown)', async () => {
    server = await startTestServer({ turns: [{ text: 'a', delayMs: 10_000 }] });
    const pending = server.postMessage('c1', 'Hi');
    await waitFor(() => server?.handle.activeTurns() === 1);
    server.handle.abortAll();
    expect(await jsonBody(await pending)).toMatchObject({ success: false, error: { code: 'LLM_ABORTED' } });
    expect(server.handle.activeTurns()).toBe(0);
  });
});

describe('GET /v1/conversations/:id/turn', () => {
  const follow = (server: TestServer, conversationId: string) =>
    server.request(`/v1/conversations/${conversationId}/turn`, { headers: { accept: 'text/event-stream' } });
  const deltasOf = (events: { event?: string; data: string }[]) =>
    events
      .filter((event) => event.event === 'agent_output')
      .map((event) => JSON.parse(event.data))
      .filter((output) => output.type === 'text_delta')
      .map((output) => output.delta)
      .join('');

  it('answers 204 when no turn of the conversation runs', async () => {
    server = await startTestServer();
    expect((await follow(server, 'c1')).status).toBe(204);
  });

  it('gives a late reader the running turn from its first event, then live, then done', async () => {
    server = await startTestServer({
      turns: [{ text: 'one two three four five six', chunkSize: 4, chunkDelayMs: 40 }],
    });
    const sender = new SseReader(await streamMessage(server, 'c1', 'Hi'));
    // The answer is streaming when the second reader comes.
    await sender.readUntil((event) => event.event === 'agent_output' && event.data.includes('text_delta'));
    const response = await follow(server, 'c1');
    expect(response.status).toBe(200);
    const followed = await new SseReader(response).readUntil((event) => event.event === 'done');
    const sent = await sender.readUntil((event) => event.event === 'done');
    expect(deltasOf(followed)).toBe('one two three four five six');
    expect(deltasOf(sent).length).toBeGreaterThan(0);
    const stored = followed.filter((event) => event.event === 'message');
    expect(stored.map((event) => [event.id, (JSON.parse(event.data) as ConversationMessage).role])).toEqual([
      ['1', 'user'],
      ['2', 'assistant'],
    ]);
    expect(followed.at(-1)).toEqual({ event: 'done', data: JSON.stringify({ success: true }) });
    // Ended and forgotten.
    expect((await follow(server, 'c1')).status).toBe(204);
  });

  it('follows a turn started by POST /v1/chat and tells an abort from another client', async () => {
    server = await startTestServer({ turns: [{ text: 'never finished', delayMs: 10_000 }] });
    const chat = server.post('/v1/chat', {
      id: 'c1',
      trigger: 'submit-message',
      messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'Hi' }] }],
    });
    await waitFor(() => server?.handle.activeTurns() === 1);
    const reader = new SseReader(await follow(server, 'c1'));
    expect((await reader.next())?.id).toBe('1');
    await server.request('/v1/conversations/c1/abort', { method: 'POST' });
    const events = await reader.readUntil((event) => event.event === 'done');
    expect(JSON.parse(events.at(-1)?.data ?? '{}')).toMatchObject({
      success: false,
      error: { code: 'LLM_ABORTED' },
    });
    await (await chat).text();
  });
});

describe('POST /v1/conversations/:id/messages?branchFrom=', () => {
  it('edits a user message as a branch: the display view and the model see the new path, the log keeps all', async () => {
    server = await startTestServer({
      turns: [{ text: 'Paris.' }, { text: 'Berlin.' }, { text: 'Rome.' }],
    });
    await server.postMessage('c1', 'Capital of France?');
    await server.postMessage('c1', 'And Germany?');
    const edited = await server.post('/v1/conversations/c1/messages?branchFrom=3', { content: 'And Italy?' });
    expect(await jsonBody(edited)).toMatchObject({ success: true, message: { content: 'Rome.', seq: 6 } });
    const shown = await jsonBody<{ messages: ConversationMessage[] }>(
      await server.request('/v1/conversations/c1/messages?view=display'),
    );
    expect(shown.messages.map((message) => message.content)).toEqual([
      'Capital of France?',
      'Paris.',
      'And Italy?',
      'Rome.',
    ]);
    expect(shown.messages[2]).toMatchObject({ seq: 5, branchFrom: 3 });
    const log = await server.store.load('c1');
    expect(log.map((message) => message.content)).toEqual([
      'Capital of France?',
      'Paris.',
      'And Germany?',
      'Berlin.',
      'And Italy?',
      'Rome.',
    ]);
  });

  it('refuses a branch that does not replace a user message of the conversation as it stands, storing nothing', async () => {
    server = await startTestServer({ turns: [{ text: 'Paris.' }] });
    await server.postMessage('c1', 'Capital of France?');
    for (const branchFrom of ['2', '9', '0', 'x']) {
      const response = await server.post(`/v1/conversations/c1/messages?branchFrom=${branchFrom}`, {
        content: 'Hm?',
      });
      expect(response.status, branchFrom).toBe(400);
      expect(await jsonBody(response)).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
    }
    expect(await server.store.load('c1')).toHaveLength(2);
  });
});

describe('POST /v1/conversations/:id/regenerate', () => {
  it('answers the last user message again as a branch, and retries after a failure the same way', async () => {
    server = await startTestServer({
      turns: [{ text: 'First try' }, { fault: { status: 500 } }, { text: 'Third try' }],
    });
    await server.postMessage('c1', 'Tell me');
    const regenerate = (body?: unknown) =>
      server?.post('/v1/conversations/c1/regenerate', body ?? {}) as Promise<Response>;
    expect(await jsonBody(await regenerate())).toMatchObject({ success: false });
    // The failed answer is stored; a retry answers the same question once more, from seq 3's place.
    expect(await jsonBody(await regenerate({ seq: 3 }))).toMatchObject({
      success: true,
      message: { content: 'Third try' },
    });
    const log = await server.store.load('c1');
    expect(
      log.map((message) => [message.seq, message.branchFrom, message.errorCode ?? message.content]),
    ).toEqual([
      [1, undefined, 'Tell me'],
      [2, undefined, 'First try'],
      [3, 1, 'Tell me'],
      [4, undefined, expect.any(String)],
      [5, 3, 'Tell me'],
      [6, undefined, 'Third try'],
    ]);
    const shown = await jsonBody<{ messages: ConversationMessage[] }>(
      await server.request('/v1/conversations/c1/messages?view=display'),
    );
    expect(shown.messages.map((message) => message.content)).toEqual(['Tell me', 'Third try']);
    // Not a user message of the conversation as it stands: refused, nothing stored.
    for (const seq of [1, 2, 6]) expect((await regenerate({ seq })).status).toBe(400);
    expect((await server.request('/v1/conversations/empty/regenerate', { method: 'POST' })).status).toBe(400);
    expect(await server.store.load('c1')).toHaveLength(6);
  });
});
