import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { openStore } from '@cairn/connect';
import { type MockProviderServer, startMockProviderServer } from '@cairn/testing';
import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { type PinnedWorker, pinnedWorker } from './support/pinned-worker.js';
import { SseReader } from './support/read-sse.js';
import {
  type ServerProcess,
  serverEnv,
  startServerProcess,
  stopServerAndMock,
  TOKEN,
  tempDir,
} from './support/server-process.js';

// `cairn-server --workers 2` as users run it (dist/bin.js), on each store that several processes share.
const STORES = ['fs', 'sqlite', 'postgres'] as const;

let server: ServerProcess | undefined;
let mock: MockProviderServer | undefined;
const pinned: PinnedWorker[] = [];
let dataDir = '';

afterEach(async () => {
  for (const connection of pinned.splice(0)) connection.close();
  await stopServerAndMock(server, mock);
  server = undefined;
  mock = undefined;
  if (dataDir !== '') await rm(dataDir, { recursive: true, force: true });
  dataDir = '';
});

/** The last user message a chat request carried: which request the mock is answering. */
function lastUserText(body: unknown): string {
  const messages = (body as { messages?: Array<{ role: string; content: unknown }> }).messages ?? [];
  const user = messages.filter((message) => message.role === 'user').at(-1);
  return typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content);
}

/** A mock model whose answers to messages containing "slow" take a while (they hold the turn lock). */
async function startMock(): Promise<MockProviderServer> {
  mock = await startMockProviderServer({
    provider: 'openai',
    turns: (request) => {
      const asked = lastUserText(request.body);
      // Forty seconds: only an abort ends it.
      if (asked.includes('endless')) return { text: 'x'.repeat(40), chunkSize: 1, chunkDelayMs: 1_000 };
      return asked.includes('slow')
        ? { text: `Answer to: ${asked}`, chunkSize: 4, chunkDelayMs: 100 }
        : { text: `Answer to: ${asked}` };
    },
  });
  return mock;
}

async function startCluster(store: (typeof STORES)[number]): Promise<ServerProcess> {
  const model = await startMock();
  dataDir = tempDir(`cluster-${store}`);
  const env = serverEnv(dataDir, {
    CAIRN_API_TOKEN: TOKEN,
    OPENAI_BASE_URL: model.baseURL,
    CAIRN_MODEL: 'mock-model',
    ...(store === 'postgres' ? { DATABASE_URL: inject('databaseUrl') } : {}),
  });
  server = await startServerProcess(['--workers', '2', '--store', store], env);
  return server;
}

/** A connection to the worker of this id (`X-Cairn-Worker`). */
async function worker(id: string): Promise<PinnedWorker> {
  if (server === undefined) throw new Error('start the cluster first');
  const connection = await pinnedWorker(server.url, id, TOKEN);
  pinned.push(connection);
  return connection;
}

const json = (method: string, body: unknown) => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

const postMessage = (on: PinnedWorker, conversationId: string, content: string) =>
  on.request(`/v1/conversations/${conversationId}/messages`, json('POST', { content }));

/** Waits until the mock model was asked `text` (the turn asking it holds the conversation's lock). */
async function modelAsked(text: string): Promise<void> {
  await expect
    .poll(() => mock?.requests.some((request) => JSON.stringify(request).includes(text)), { timeout: 20_000 })
    .toBe(true);
}

async function storedMessages(on: PinnedWorker, conversationId: string): Promise<string[][]> {
  const response = await on.request(`/v1/conversations/${conversationId}/messages`);
  const { messages } = (await response.json()) as { messages: Array<{ role: string; content: string }> };
  return messages.map((message) => [message.role, message.content]);
}

/**
 * The AI SDK's own chat transport (what `useChat` uses) talking to one worker: its requests go over
 * that worker's connection, and `workers` records which worker answered each.
 */
function transportOn(on: PinnedWorker, workers: string[]) {
  if (server === undefined) throw new Error('start the cluster first');
  return new DefaultChatTransport<UIMessage>({
    api: `${server.url}/v1/chat`,
    fetch: async (input, init) => {
      const response = await on.request(new URL(String(input)).pathname, {
        method: init?.method ?? 'GET',
        headers: Object.fromEntries(new Headers(init?.headers)),
        ...(typeof init?.body === 'string' ? { body: init.body } : {}),
      });
      workers.push(response.headers.get('x-cairn-worker') ?? '');
      return response;
    },
  });
}

/** The text of the message the AI SDK builds from a UI message stream, read to its end. */
async function answerText(stream: ReadableStream<UIMessageChunk>): Promise<string> {
  let message: UIMessage | undefined;
  for await (const next of readUIMessageStream({ stream })) message = next;
  return (message?.parts ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');
}

describe.each(STORES)('cairn-server --workers 2 on %s', (store) => {
  it('serialises one conversation across workers, and /events resumes and ends on another worker', async () => {
    await startCluster(store);
    const [a, b, feedOn, resumeOn] = [
      await worker('1'),
      await worker('2'),
      await worker('2'),
      await worker('1'),
    ];
    const id = `c-${randomUUID()}`;
    const feed = new SseReader(await feedOn.request(`/v1/conversations/${id}/events`));

    // The second message, sent to the other worker, waits for the first turn's lock.
    const first = postMessage(a, id, 'first, slow, on worker 1');
    await modelAsked('first, slow, on worker 1');
    const second = postMessage(b, id, 'second, on worker 2');
    const [firstResponse, secondResponse] = await Promise.all([first, second]);
    expect([firstResponse.status, firstResponse.headers.get('x-cairn-worker')]).toEqual([200, '1']);
    expect([secondResponse.status, secondResponse.headers.get('x-cairn-worker')]).toEqual([200, '2']);
    const expected = [
      ['user', 'first, slow, on worker 1'],
      ['assistant', 'Answer to: first, slow, on worker 1'],
      ['user', 'second, on worker 2'],
      ['assistant', 'Answer to: second, on worker 2'],
    ];
    expect(await storedMessages(a, id)).toEqual(expected);

    // Worker 2's feed saw worker 1's turn (woken through the bus) and its own, in order.
    const streamed = await feed.take(4);
    const contentOf = (event: { data: string }) => {
      const message = JSON.parse(event.data) as { role: string; content: string };
      return [message.role, message.content];
    };
    expect(streamed.map(contentOf)).toEqual(expected);

    // Resuming on worker 1 after the second event gives the rest, no gap, no duplicate.
    const resumed = new SseReader(
      await resumeOn.request(`/v1/conversations/${id}/events`, {
        headers: { 'last-event-id': streamed[1]?.id ?? '' },
      }),
    );
    expect((await resumed.take(2)).map(contentOf)).toEqual(expected.slice(2));

    // Deleted on worker 1: both workers' live streams end with `deleted`.
    expect((await a.request(`/v1/conversations/${id}`, { method: 'DELETE' })).status).toBe(204);
    const deleted = { event: 'deleted', data: JSON.stringify({ conversationId: id }) };
    expect(await feed.next()).toEqual(deleted);
    expect(await resumed.next()).toEqual(deleted);
  });

  it('resumes a chat turn on a worker that does not run it (the AI SDK client): the answer so far, then live', async () => {
    await startCluster(store);
    const [a, b] = [await worker('1'), await worker('2')];
    const id = `chat-${randomUUID()}`;
    const onA: string[] = [];
    const onB: string[] = [];
    const chat = await transportOn(a, onA).sendMessages({
      trigger: 'submit-message',
      chatId: id,
      messageId: undefined,
      messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'a slow question' }] }],
      abortSignal: undefined,
    });
    await modelAsked('a slow question');
    const resumed = await transportOn(b, onB).reconnectToStream({ chatId: id });
    expect(resumed).not.toBeNull();
    expect([onA, onB]).toEqual([['1'], ['2']]);
    // The page's way: the turn's own events, followed on the other worker too (its own connection).
    const followed = await (await worker('2')).request(`/v1/conversations/${id}/turn`, {
      headers: { accept: 'text/event-stream' },
    });
    expect(followed.status).toBe(200);
    const [original, relayed, events] = await Promise.all([
      answerText(chat),
      answerText(resumed as ReadableStream<UIMessageChunk>),
      new SseReader(followed).readUntil((event) => event.event === 'done'),
    ]);
    expect(original).toBe('Answer to: a slow question');
    expect(relayed).toBe(original);
    const outputs = events
      .filter((event) => event.event === 'agent_output')
      .map((event) => JSON.parse(event.data));
    expect(outputs.flatMap((output) => (output.type === 'text_delta' ? [output.delta] : [])).join('')).toBe(
      original,
    );
    expect(events.filter((event) => event.event === 'message').map((event) => event.id)).toEqual(['1', '2']);
    expect(JSON.parse(events.at(-1)?.data ?? '{}')).toEqual({ success: true });
    expect((await b.request(`/v1/conversations/${id}/turn`)).status).toBe(204);
    // Once the turn ended, no worker runs it: the client finds nothing to resume.
    expect(await transportOn(b, onB).reconnectToStream({ chatId: id })).toBeNull();
    expect(await transportOn(a, onA).reconnectToStream({ chatId: id })).toBeNull();
  });

  it('drains every worker on SIGTERM: a turn in flight on each finishes and is stored', async () => {
    const cluster = await startCluster(store);
    const [a, b] = [await worker('1'), await worker('2')];
    const [one, two] = [`c-${randomUUID()}`, `c-${randomUUID()}`];
    const turns = [
      postMessage(a, one, 'slow one, on worker 1'),
      postMessage(b, two, 'slow two, on worker 2'),
    ];
    await modelAsked('slow one, on worker 1');
    await modelAsked('slow two, on worker 2');
    cluster.child.kill('SIGTERM');
    const answers = await Promise.all(
      turns.map(async (turn) => {
        const response = await turn;
        const body = (await response.json()) as { success: boolean; message?: { content: string } };
        return [response.status, body.success, body.message?.content];
      }),
    );
    expect(answers).toEqual([
      [200, true, 'Answer to: slow one, on worker 1'],
      [200, true, 'Answer to: slow two, on worker 2'],
    ]);
    expect(await cluster.exited).toBe(0);
    expect(cluster.logs().filter((line) => line.msg === 'cluster worker stopped')).toHaveLength(2);
    const stored = await openStore({
      store,
      dataDir,
      ...(store === 'postgres' ? { databaseUrl: inject('databaseUrl') } : {}),
    });
    try {
      for (const [conversationId, asked] of [
        [one, 'slow one, on worker 1'],
        [two, 'slow two, on worker 2'],
      ] as const) {
        const log = await stored.load(conversationId);
        expect(log.map((message) => [message.role, message.content])).toEqual([
          ['user', asked],
          ['assistant', `Answer to: ${asked}`],
        ]);
      }
    } finally {
      await stored.close();
    }
  });
});

describe('aborting on another worker', () => {
  it('aborts the turn running on one worker and, asked to, the one queued on the other', async () => {
    await startCluster('fs');
    const [a, b, aborter, scraper] = [
      await worker('1'),
      await worker('2'),
      await worker('2'),
      await worker('1'),
    ];
    const id = `c-${randomUUID()}`;
    const running = postMessage(a, id, 'endless, on worker 1');
    await modelAsked('endless, on worker 1');
    const queued = postMessage(b, id, 'queued on worker 2');
    // Both turns are counted (one running on worker 1, one waiting on worker 2) before the abort:
    // /metrics answers for the whole server, whichever worker a scrape reaches.
    const activeTurns = async (on: PinnedWorker) =>
      (await (await on.request('/metrics')).text()).match(/^cairn_turns_active (\d+)/m)?.[1];
    await expect.poll(() => activeTurns(aborter)).toBe('2');
    expect(await activeTurns(scraper)).toBe('2');
    // Nothing runs there: no worker aborts anything.
    const nothing = await aborter.request(`/v1/conversations/c-${randomUUID()}/abort`, { method: 'POST' });
    expect(await nothing.json()).toEqual({ aborted: false });
    const abort = await aborter.request(`/v1/conversations/${id}/abort?queued=true`, { method: 'POST' });
    expect([abort.status, await abort.json()]).toEqual([202, { aborted: true }]);
    for (const response of await Promise.all([running, queued])) {
      expect(await response.json()).toMatchObject({ success: false, error: { code: 'LLM_ABORTED' } });
    }
    const stored = await storedMessages(a, id);
    expect(stored.map(([role]) => role)).toEqual(['user', 'assistant']);
    expect(stored[0]?.[1]).toBe('endless, on worker 1');
  });
});

describe('a cluster worker that dies', () => {
  it('releases its turn locks (a turn waiting on another worker goes on) and is restarted', async () => {
    const cluster = await startCluster('fs');
    const [a, b] = [await worker('1'), await worker('2')];
    const id = `c-${randomUUID()}`;
    const first = postMessage(a, id, 'first, slow, dies with worker 1').catch((error: unknown) => error);
    await modelAsked('first, slow, dies with worker 1');
    const second = postMessage(b, id, 'second, on worker 2');
    const pid = cluster.logs().find((line) => line.worker === 1 && typeof line.pid === 'number')?.pid;
    process.kill(Number(pid), 'SIGKILL');

    const response = await second;
    expect(response.status).toBe(200);
    expect(((await response.json()) as { message?: { content: string } }).message?.content).toBe(
      'Answer to: second, on worker 2',
    );
    expect(await first).toBeInstanceOf(Error);
    expect((await storedMessages(b, id)).slice(-2)).toEqual([
      ['user', 'second, on worker 2'],
      ['assistant', 'Answer to: second, on worker 2'],
    ]);
    await expect
      .poll(() => cluster.logs().some((line) => line.msg === 'cluster worker restarted'), { timeout: 20_000 })
      .toBe(true);
    expect(cluster.logs().find((line) => String(line.msg).startsWith('cluster worker died'))).toMatchObject({
      workerId: 1,
      signal: 'SIGKILL',
    });
    // The restarted worker (id 3) serves the port.
    await worker('3');
  });
});
