import { type ConversationMessage, type ConversationStore, contentText } from '@cairn/core';
import { createAgentRuntime, type WorkflowPackage } from '@cairn/runtime';
import { createMemoryConversationStore } from '@cairn/storage';
import { ScriptedModel, type ScriptTurn } from '@cairn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerAppOptions } from '../src/app/create-server-app.js';
import { createInProcessEventBus } from '../src/events/in-process-event-bus.js';
import { createInProcessTurnLock } from '../src/turn-lock/in-process-turn-lock.js';
import type { ConversationTurnLock } from '../src/turn-lock/turn-lock.js';
import { errorCode, jsonBody } from './support/json-body.js';
import { SseReader } from './support/read-sse.js';
import { type AppServer, serveApp } from './support/serve-app.js';
import { waitFor } from './support/start-test-server.js';

const ARTICLE: WorkflowPackage = {
  name: 'article',
  workflows: [
    {
      id: 'review',
      name: 'Review an article',
      entry: 'draft',
      nodes: [
        { id: 'draft', name: 'Draft', instruction: 'Write a first draft.' },
        { id: 'publish', name: 'Publish', instruction: 'Publish the article once the user agrees.' },
      ],
      edges: [{ from: 'draft', to: 'publish' }],
    },
  ],
};

const completeStep = (summary: string): ScriptTurn => ({
  toolCalls: [{ name: 'complete_step', arguments: { summary } }],
});

interface RunBody {
  runId: string;
  conversationId: string;
  status: string;
  currentNodeId: string;
  stepsCompleted: string[];
  workflowId: string;
  packageName: string;
  input?: string;
}

interface RunTurnBody {
  runId: string;
  conversationId: string;
  run: RunBody;
  success: boolean;
  message?: ConversationMessage;
  error?: { code: string };
}

let server: AppServer | undefined;
let store: ConversationStore;
/** The conversations the turn lock was asked for, in order. */
let locked: string[];
/** Aborting it loses the lock of the turns running (as a PostgreSQL lock whose session ended). */
let lockLost: AbortController;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(turns: ScriptTurn[], options: Partial<ServerAppOptions> = {}): Promise<AppServer> {
  store = createMemoryConversationStore();
  const model = new ScriptedModel({ turns });
  const runtime = createAgentRuntime({
    store,
    model,
    workflows: [ARTICLE],
    settings: { compression: false },
  });
  const inner = createInProcessTurnLock();
  locked = [];
  lockLost = new AbortController();
  const turnLock: ConversationTurnLock = {
    run(conversationId, work, lockOptions) {
      locked.push(conversationId);
      return inner.run(
        conversationId,
        (innerLost) => work(AbortSignal.any([innerLost, lockLost.signal])),
        lockOptions,
      );
    },
    close: () => inner.close(),
  };
  server = await serveApp({
    store,
    runtime,
    events: createInProcessEventBus(),
    turnLock,
    workflows: [ARTICLE],
    ...options,
  });
  return server;
}

describe('GET /v1/workflows', () => {
  it('lists the workflow packages with their steps and edges', async () => {
    const app = await start([]);
    const response = await app.request('/v1/workflows');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ packages: [ARTICLE] });
  });
});

describe('POST /v1/runs', () => {
  it('starts the run, runs its first turn under the turn lock and stores everything in run-<id>', async () => {
    const app = await start([completeStep('Drafted it'), { text: 'Draft done. Publish it?' }]);
    const response = await app.post('/v1/runs', {
      workflow: 'article/review',
      input: 'An article on cairns',
      runId: 'r1',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe('/v1/runs/r1');
    const body = await jsonBody<RunTurnBody>(response);
    expect(body).toMatchObject({
      runId: 'r1',
      conversationId: 'run-r1',
      success: true,
      message: { role: 'assistant', content: 'Draft done. Publish it?', mode: 'run', runId: 'r1' },
      run: {
        runId: 'r1',
        conversationId: 'run-r1',
        packageName: 'article',
        workflowId: 'review',
        status: 'active',
        currentNodeId: 'publish',
        stepsCompleted: ['draft'],
        input: 'An article on cairns',
      },
    });
    expect(body.error).toBeUndefined();
    expect(body.run).not.toHaveProperty('streamSequence');
    expect(locked).toEqual(['run-r1']);

    const stored = await store.load('run-r1');
    expect(stored.map((message) => message.partType ?? message.role)).toEqual([
      'run_workflow',
      'run_state',
      'user',
      'tool_call',
      // complete_step moves the run: not idempotent, so the ledger stores its intent first.
      'tool_intent',
      // complete_step stores the new state before its result.
      'run_state',
      'tool_result',
      'assistant',
      'run_state',
    ]);
    expect(stored[2]).toMatchObject({ role: 'user', content: 'An article on cairns', mode: 'run' });
  });

  it('generates a run id when none is given', async () => {
    const app = await start([{ text: 'Working on it' }]);
    const body = await jsonBody<RunTurnBody>(await app.post('/v1/runs', { workflow: 'review' }));
    expect(body.runId).toMatch(/^r-[0-9a-f-]{36}$/);
    expect(body.conversationId).toBe(`run-${body.runId}`);
    expect(body.run.currentNodeId).toBe('draft');
    expect((await store.load(body.conversationId))[2]).toMatchObject({
      role: 'user',
      content: 'Start the workflow.',
    });
  });

  it('streams the first turn: stored messages with their seq, the run records, agent output, done', async () => {
    const app = await start([completeStep('Drafted it'), { text: 'Draft done', chunkSize: 4 }]);
    const response = await app.post('/v1/runs', { workflow: 'review', runId: 'r2' }, 'text/event-stream');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = await new SseReader(response).readUntil((event) => event.event === 'done');
    const messages = events
      .filter((event) => event.event === 'message')
      .map((event) => ({ id: event.id, message: JSON.parse(event.data) as ConversationMessage }));
    expect(messages.map(({ id }) => id)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
    expect(messages.map(({ message }) => message.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const states = messages
      .filter(({ message }) => message.partType === 'run_state')
      .map(({ message }) => JSON.parse(contentText(message.content)) as RunBody);
    expect(states.at(-1)).toMatchObject({
      status: 'active',
      currentNodeId: 'publish',
      stepsCompleted: ['draft'],
    });
    const deltas = events
      .filter((event) => event.event === 'agent_output')
      .map((event) => JSON.parse(event.data) as { type: string; delta?: string })
      .filter((output) => output.type === 'text_delta')
      .map((output) => output.delta);
    expect(deltas.join('')).toBe('Draft done');
    expect(events.at(-1)).toEqual({ event: 'done', data: JSON.stringify({ success: true }) });
    expect((await store.load('run-r2')).length).toBe(9);
  });

  it('answers an unknown workflow 400 before anything is stored, as JSON and before a stream', async () => {
    const app = await start([{ text: 'never' }]);
    const json = await app.post('/v1/runs', { workflow: 'article/nope' });
    expect(json.status).toBe(400);
    expect(await jsonBody(json)).toEqual({
      error: { code: 'INVALID_ARGUMENT', message: 'Unknown workflow "article/nope"' },
    });
    const streamed = await app.post('/v1/runs', { workflow: 'nope', runId: 'r3' }, 'text/event-stream');
    expect(streamed.status).toBe(400);
    expect(await errorCode(streamed)).toBe('INVALID_ARGUMENT');
    expect((await store.listConversations()).conversations).toEqual([]);
    expect(app.handle.activeTurns()).toBe(0);
  });

  it('refuses a taken run id, bad ids and bad bodies', async () => {
    const app = await start([{ text: 'first' }]);
    expect((await app.post('/v1/runs', { workflow: 'review', runId: 'r1' })).status).toBe(201);
    const taken = await app.post('/v1/runs', { workflow: 'review', runId: 'r1' });
    expect(taken.status).toBe(409);
    expect(await errorCode(taken)).toBe('CONVERSATION_EXISTS');
    for (const body of [
      { workflow: 'review', runId: '../etc' },
      { workflow: 'review', runId: '.hidden' },
      { workflow: 'review', runId: 'x'.repeat(125) },
      { workflow: '' },
      { workflow: 'review', input: '   ' },
      { input: 'no workflow' },
      { workflow: 42 },
    ]) {
      const response = await app.post('/v1/runs', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const answer = await jsonBody<{ error: { code: string; message: string } }>(response);
      expect(answer.error.code).toBe('INVALID_ARGUMENT');
      expect(answer.error.message).not.toMatch(/\bat .*\.(ts|js):\d+/);
    }
    expect((await store.listConversations()).conversations.map((conversation) => conversation.id)).toEqual([
      'run-r1',
    ]);
  });

  it('counts run turns against the concurrent-turn cap', async () => {
    const app = await start([{ text: 'slow', delayMs: 500 }, { text: 'never' }], { maxConcurrentTurns: 1 });
    const first = app.post('/v1/runs', { workflow: 'review', runId: 'r1' });
    await waitFor(() => app.handle.activeTurns() === 1);
    const second = await app.post('/v1/runs', { workflow: 'review', runId: 'r2' });
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBe('1');
    expect(await errorCode(second)).toBe('TOO_MANY_TURNS');
    const chat = await app.post('/v1/conversations/c1/messages', { content: 'Hi' });
    expect(chat.status).toBe(429);
    expect((await first).status).toBe(201);
  });
});

describe('POST /v1/runs/:id/messages', () => {
  it("runs the next turn with the user's reply until the run completes; GET shows where it stands", async () => {
    const app = await start([
      completeStep('Drafted'),
      { text: 'Draft done. Publish it?' },
      completeStep('Published'),
      { text: 'Published.' },
    ]);
    await app.post('/v1/runs', { workflow: 'review', runId: 'r1' });
    const response = await app.post('/v1/runs/r1/messages', { content: 'Yes, publish it.' });
    expect(response.status).toBe(200);
    expect(await jsonBody(response)).toMatchObject({
      runId: 'r1',
      success: true,
      message: { content: 'Published.' },
      run: { status: 'completed', stepsCompleted: ['draft', 'publish'] },
    });
    expect(locked).toEqual(['run-r1', 'run-r1']);
    const stored = await store.load('run-r1');
    expect(stored.filter((message) => message.role === 'user').map((message) => message.content)).toEqual([
      'Start the workflow.',
      'Yes, publish it.',
    ]);

    const state = await app.request('/v1/runs/r1');
    expect(state.status).toBe(200);
    expect(await jsonBody(state)).toMatchObject({
      runId: 'r1',
      status: 'completed',
      currentNodeId: 'publish',
    });
  });

  it('continues without a body ("Continue.") and streams the turn', async () => {
    const app = await start([{ text: 'Still drafting' }, { text: 'Now done', chunkSize: 100 }]);
    await app.post('/v1/runs', { workflow: 'review', runId: 'r1' });
    // The whole text too: the messages' content is checked below.
    const response = await app.post('/v1/runs/r1/messages?text=full', undefined, 'text/event-stream');
    expect(response.status).toBe(200);
    const events = await new SseReader(response).readUntil((event) => event.event === 'done');
    const messages = events
      .filter((event) => event.event === 'message')
      .map((event) => JSON.parse(event.data) as ConversationMessage);
    expect(
      messages.map((message) => [
        message.role,
        contentText(message.content).startsWith('{') ? 'state' : message.content,
      ]),
    ).toEqual([
      ['user', 'Continue.'],
      ['assistant', 'Now done'],
      ['system', 'state'],
    ]);
    expect(events.at(-1)?.data).toBe(JSON.stringify({ success: true }));
  });

  it('answers 404 for a run that does not exist, as JSON and before a stream, and 400 for a bad id', async () => {
    const app = await start([]);
    const missing = await app.post('/v1/runs/nope/messages', { content: 'Hi' });
    expect(missing.status).toBe(404);
    expect(await errorCode(missing)).toBe('STORE_NOT_FOUND');
    const streamed = await app.post('/v1/runs/nope/messages', { content: 'Hi' }, 'text/event-stream');
    expect(streamed.status).toBe(404);
    expect((await app.request('/v1/runs/nope')).status).toBe(404);
    for (const path of ['/v1/runs/.x', `/v1/runs/${'x'.repeat(125)}`, '/v1/runs/a%20b']) {
      const response = await app.request(path);
      expect(response.status, path).toBe(400);
      expect(await errorCode(response)).toBe('INVALID_ID');
    }
    const badReply = await app.post('/v1/runs/r1/messages', { content: '' });
    expect(badReply.status).toBe(400);
    expect((await store.listConversations()).conversations).toEqual([]);
  });

  it('is aborted by POST /v1/runs/:id/abort; the abort is stored', async () => {
    const app = await start([{ text: 'first' }, { text: 'too slow', delayMs: 5_000 }]);
    await app.post('/v1/runs', { workflow: 'review', runId: 'r1' });
    const reader = new SseReader(
      await app.post('/v1/runs/r1/messages', { content: 'Go on' }, 'text/event-stream'),
    );
    expect((await reader.next())?.event).toBe('message');
    const abort = await app.post('/v1/runs/r1/abort');
    expect(abort.status).toBe(202);
    expect(await jsonBody(abort)).toEqual({ aborted: true });
    const events = await reader.readUntil((event) => event.event === 'done');
    expect(JSON.parse(events.at(-1)?.data ?? '{}')).toMatchObject({
      success: false,
      error: { code: 'LLM_ABORTED' },
    });
    const stored = await store.load('run-r1');
    expect(
      stored.some((message) => message.partType === 'error' && message.errorCode === 'LLM_ABORTED'),
    ).toBe(true);
    expect(await jsonBody(await app.post('/v1/runs/r1/abort'))).toEqual({ aborted: false });
  });

  it('stops the turn when its conversation lock is lost', async () => {
    const app = await start([{ text: 'first' }, { text: 'too slow', delayMs: 5_000 }]);
    await app.post('/v1/runs', { workflow: 'review', runId: 'r1' });
    const turn = app.post('/v1/runs/r1/messages', { content: 'Go on' });
    await waitFor(() => app.handle.activeTurns() === 1);
    // The turn holds the lock once its input is stored; the model then takes its time.
    await expect
      .poll(async () => (await store.load('run-r1')).some((message) => message.content === 'Go on'))
      .toBe(true);
    lockLost.abort(new Error('lock session ended'));
    const body = await jsonBody<RunTurnBody>(await turn);
    expect(body).toMatchObject({ success: false, error: { code: 'LLM_ABORTED' }, run: { status: 'active' } });
    expect((await store.load('run-r1')).some((message) => message.errorCode === 'LLM_ABORTED')).toBe(true);
  });
});

describe('GET /v1/runs', () => {
  it('pages the runs, most recently updated first, skipping other conversations', async () => {
    const app = await start([{ text: 'a' }, { text: 'chat' }, { text: 'b' }]);
    await app.post('/v1/runs', { workflow: 'review', runId: 'first' });
    await app.post('/v1/conversations/c1/messages', { content: 'Hi' });
    await app.post('/v1/runs', { workflow: 'review', runId: 'second' });
    const all = await jsonBody<{ runs: RunBody[]; nextCursor?: string }>(await app.request('/v1/runs'));
    expect(all.runs.map((run) => [run.runId, run.conversationId, run.status])).toEqual([
      ['second', 'run-second', 'active'],
      ['first', 'run-first', 'active'],
    ]);
    expect(all.nextCursor).toBeUndefined();
    const page = await jsonBody<{ runs: RunBody[]; nextCursor?: string }>(
      await app.request('/v1/runs?limit=1'),
    );
    expect(page.runs.map((run) => run.runId)).toEqual(['second']);
    expect(page.nextCursor).toEqual(expect.any(String));
    const next = await jsonBody<{ runs: RunBody[] }>(
      await app.request(`/v1/runs?limit=2&cursor=${encodeURIComponent(page.nextCursor ?? '')}`),
    );
    expect(next.runs.map((run) => run.runId)).toEqual(['first']);
    expect((await app.request('/v1/runs?limit=0')).status).toBe(400);
  });
});

describe('auth and the OpenAPI document', () => {
  it('needs the token on every run route and documents them', async () => {
    const app = await start([], { apiToken: 'secret-token-0123456789' });
    for (const [method, path] of [
      ['GET', '/v1/workflows'],
      ['GET', '/v1/runs'],
      ['POST', '/v1/runs'],
      ['GET', '/v1/runs/r1'],
      ['POST', '/v1/runs/r1/messages'],
      ['POST', '/v1/runs/r1/abort'],
    ] as const) {
      const response = await fetch(`${app.baseURL}${path}`, { method });
      expect(response.status, `${method} ${path}`).toBe(401);
    }
    const document = await jsonBody<{
      paths: Record<string, Record<string, { responses: object }>>;
      components: { schemas: object };
    }>(await fetch(`${app.baseURL}/openapi.json`));
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/v1/workflows',
        '/v1/runs',
        '/v1/runs/{id}',
        '/v1/runs/{id}/messages',
        '/v1/runs/{id}/abort',
      ]),
    );
    expect(Object.keys(document.paths['/v1/runs']?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '201', '400', '401', '409', '429']),
    );
    expect(document.components.schemas).toHaveProperty('RunTurnResult');
    expect(document.components.schemas).toHaveProperty('Run');
    expect(document.components.schemas).toHaveProperty('WorkflowList');
  });
});
