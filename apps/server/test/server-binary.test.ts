import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createFsConversationStore } from '@cairn/store-fs';
import { type MockProviderServer, startMockProviderServer } from '@cairn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonBody } from './support/json-body.js';
import { SseReader } from './support/read-sse.js';
import {
  postStreamingTurn,
  runServerToExit,
  type ServerProcess,
  serverEnv,
  startServerProcess,
  stopServerAndMock,
  TOKEN,
  tempDir,
} from './support/server-process.js';

let mock: MockProviderServer | undefined;
let server: ServerProcess | undefined;

afterEach(async () => {
  await stopServerAndMock(server, mock);
  server = undefined;
  mock = undefined;
});

/** Env pointing the server at the mock OpenAI-compatible model. */
async function mockModelEnv(dataDir: string, turns: Parameters<typeof startMockProviderServer>[0]['turns']) {
  mock = await startMockProviderServer({ provider: 'openai', turns });
  return serverEnv(dataDir, {
    OPENAI_BASE_URL: mock.baseURL,
    CAIRN_MODEL: 'mock-model',
    CAIRN_API_TOKEN: TOKEN,
  });
}

async function waitForLog(process: ServerProcess, text: string): Promise<void> {
  await expect
    .poll(() => process.logs().some((entry) => String(entry.msg).includes(text)), {
      message: `no log line with "${text}"`,
      timeout: 10_000,
      interval: 20,
    })
    .toBe(true);
}

async function storedMessages(dataDir: string, conversationId: string) {
  const store = createFsConversationStore({ rootDir: join(dataDir, 'store') });
  try {
    return await store.load(conversationId);
  } finally {
    await store.close();
  }
}

describe('cairn-server refuses to expose an open API', () => {
  it('does not start without CAIRN_API_TOKEN', async () => {
    const dataDir = tempDir('no-token');
    const run = await runServerToExit(['--port', '0'], serverEnv(dataDir));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('CAIRN_API_TOKEN is not set');
    expect(run.stderr).toContain('[INVALID_ARGUMENT]');
    expect(run.stderr).toContain('--insecure-local');
    expect(run.stdout).toBe('');
  });

  it('refuses --insecure-local on an address other machines can reach', async () => {
    const run = await runServerToExit(['--insecure-local', '--host', '0.0.0.0'], serverEnv(tempDir('open')));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--insecure-local only runs on a loopback address, not on 0.0.0.0');
  });

  it('refuses a short token without echoing it', async () => {
    const run = await runServerToExit([], serverEnv(tempDir('short'), { CAIRN_API_TOKEN: 'hunter2' }));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('CAIRN_API_TOKEN: must be at least 16 characters');
    expect(run.stderr).not.toContain('hunter2');
  });

  it('names the flag of a bad value', async () => {
    const run = await runServerToExit(
      ['--port', 'http'],
      serverEnv(tempDir('port'), { CAIRN_API_TOKEN: TOKEN }),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--port \/ PORT: .*"http"/);
  });

  it('never echoes a value that may hold credentials', async () => {
    const run = await runServerToExit(
      ['--provider', 'nope', '--base-url', 'http://user:hunter2-secret@localhost:1/v1'],
      serverEnv(tempDir('creds'), { CAIRN_API_TOKEN: TOKEN }),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--provider / --model / --base-url');
    expect(run.stderr).not.toContain('hunter2-secret');
  });

  it('says the database cannot be reached, as a store failure (exit 3), without the URL', async () => {
    const run = await runServerToExit(
      ['--store', 'postgres'],
      serverEnv(tempDir('pg-down'), {
        CAIRN_API_TOKEN: TOKEN,
        OPENAI_API_KEY: 'sk-test',
        DATABASE_URL: 'postgres://cairn:db-password@127.0.0.1:1/cairn',
      }),
    );
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('cannot open the postgres store');
    expect(run.stderr).toContain('[STORE_UNAVAILABLE]');
    expect(run.stderr).not.toContain('db-password');
  });

  it('without any model configured, says how to configure one', async () => {
    const run = await runServerToExit([], serverEnv(tempDir('model'), { CAIRN_API_TOKEN: TOKEN }));
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('[LLM_AUTH]');
    expect(run.stderr).toContain('OPENAI_API_KEY');
  });
});

describe('cairn-server serving', () => {
  it('with --insecure-local on loopback, serves /v1 without a token', async () => {
    const dataDir = tempDir('insecure');
    const env = await mockModelEnv(dataDir, [{ text: 'hi' }]);
    delete env.CAIRN_API_TOKEN;
    server = await startServerProcess(['--insecure-local'], env);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${server.url}/v1/conversations`)).status).toBe(200);
    expect(server.logs()[0]).toMatchObject({ auth: 'none (--insecure-local)', store: 'fs' });
  });

  it('requires the token, runs turns on the configured model (or one of --models) and stores them under the data dir', async () => {
    const dataDir = tempDir('token');
    server = await startServerProcess(
      ['--models', 'mock-model-mini'],
      await mockModelEnv(dataDir, [{ text: 'Hello from the mock' }, { text: 'Mini here' }]),
    );
    expect((await fetch(`${server.url}/v1/conversations`)).status).toBe(401);
    const response = await server.request('/v1/conversations/c1/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'Hi' }),
    });
    expect(response.status).toBe(200);
    expect(await (await server.request('/v1/models')).json()).toEqual({
      models: [
        { id: 'mock-model', provider: 'openai', default: true },
        { id: 'mock-model-mini', provider: 'openai', default: false },
      ],
    });
    const picked = await server.request('/v1/conversations/c1/messages?model=mock-model-mini', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'And you?' }),
    });
    expect(await picked.json()).toMatchObject({ success: true, message: { content: 'Mini here' } });
    // The chat requests (a probe of the model list has no body), each to the model asked for.
    const asked = mock?.requests.flatMap((request) => {
      const model = (request.body as { model?: string } | undefined)?.model;
      return model === undefined ? [] : [model];
    });
    expect(asked).toEqual(['mock-model', 'mock-model-mini']);
    expect(server.logs()[0]).toMatchObject({
      model: 'openai-compatible mock-model',
      modelFrom: 'OPENAI_BASE_URL',
    });
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const stored = await storedMessages(dataDir, 'c1');
    expect(stored.map((message) => [message.role, message.content])).toEqual([
      ['user', 'Hi'],
      ['assistant', 'Hello from the mock'],
      ['user', 'And you?'],
      ['assistant', 'Mini here'],
    ]);
    // Neither the token nor the conversation's text reaches the logs.
    const logText = JSON.stringify(server.logs());
    expect(logText).not.toContain(TOKEN);
    expect(logText).not.toContain('Hello from the mock');
  });
});

describe('cairn-server run mode', () => {
  it('loads --workflows files and runs them on /v1/runs', async () => {
    const dataDir = tempDir('workflows');
    const file = join(dataDir, 'greeting.yaml');
    writeFileSync(
      file,
      [
        'id: greet',
        'name: Greet',
        'entry: hello',
        'nodes:',
        '  - { id: hello, name: Say hello, instruction: Greet the user. }',
        'edges: []',
      ].join('\n'),
    );
    server = await startServerProcess(
      ['--workflows', file],
      await mockModelEnv(dataDir, [{ text: 'Hello, and welcome.' }]),
    );
    const listed = await jsonBody<{ packages: Array<{ name: string; workflows: Array<{ id: string }> }> }>(
      await server.request('/v1/workflows'),
    );
    expect(listed.packages.map((pkg) => [pkg.name, pkg.workflows.map((workflow) => workflow.id)])).toEqual([
      ['greeting', ['greet']],
    ]);
    const started = await server.request('/v1/runs', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ workflow: 'greeting/greet' }),
    });
    expect(started.status).toBe(201);
    const body = await jsonBody<{ runId: string; conversationId: string; success: boolean }>(started);
    expect(body.success).toBe(true);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const stored = await storedMessages(dataDir, body.conversationId);
    expect(stored.filter((message) => message.role === 'assistant').at(-1)?.content).toBe(
      'Hello, and welcome.',
    );
  });
});

describe('cairn-server on SIGTERM', () => {
  it('lets a running turn finish, refuses new ones, ends live event streams, then exits 0', async () => {
    const dataDir = tempDir('drain');
    const chunks = ['one ', 'two ', 'three ', 'four ', 'five'];
    server = await startServerProcess(
      [],
      await mockModelEnv(dataDir, [{ text: chunks.join(''), chunkDelayMs: 300 }]),
    );
    const events = new SseReader(await server.request('/v1/conversations/c1/events'));
    const turn = new SseReader(await postStreamingTurn(server, 'c1', 'count'));
    await turn.readUntil((event) => event.event === 'agent_output');
    server.child.kill('SIGTERM');

    // The live feed ends (its client resumes elsewhere with Last-Event-ID) ...
    await events.readUntil(() => false);
    // ... new writes are refused, or the listener is already gone ...
    const refused = await server
      .request('/v1/conversations/c2/messages', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'too late' }),
      })
      .then((response) => response.status)
      .catch(() => 'connection refused');
    expect([503, 'connection refused']).toContain(refused);
    // ... while the running turn streams to its end.
    const rest = await turn.readUntil((event) => event.event === 'done');
    expect(JSON.parse(rest.at(-1)?.data ?? '{}')).toMatchObject({ success: true });
    expect(await server.exited).toBe(0);

    const stored = await storedMessages(dataDir, 'c1');
    expect(stored.map((message) => message.content)).toEqual(['count', chunks.join('')]);
    expect(await storedMessages(dataDir, 'c2')).toEqual([]);
  });

  it('aborts turns still running after the grace period, storing the abort', async () => {
    const dataDir = tempDir('abort');
    server = await startServerProcess(
      ['--grace-period', '0.5'],
      await mockModelEnv(dataDir, [{ text: 'x'.repeat(40), chunkDelayMs: 1_000 }]),
    );
    const turn = new SseReader(await postStreamingTurn(server, 'c1', 'take your time'));
    await turn.readUntil((event) => event.event === 'agent_output');
    server.child.kill('SIGTERM');
    const rest = await turn.readUntil((event) => event.event === 'done');
    // The model would have taken 40 s and then succeeded: a failed, aborted turn means the grace
    // period, not the turn, decided when it stopped.
    expect(JSON.parse(rest.at(-1)?.data ?? '{}')).toMatchObject({ success: false });
    expect(await server.exited).toBe(0);
    const stored = await storedMessages(dataDir, 'c1');
    expect(stored.at(-1)).toMatchObject({ role: 'assistant', partType: 'error', errorCode: 'LLM_ABORTED' });
    expect(server.logs().at(-1)).toMatchObject({ msg: 'stopped', abortedTurns: 1 });
  });

  it('aborts at once on a second signal, and counts the turns it aborted', async () => {
    const dataDir = tempDir('second-signal');
    server = await startServerProcess(
      ['--grace-period', '60'],
      await mockModelEnv(dataDir, [{ text: 'y'.repeat(40), chunkDelayMs: 1_000 }]),
    );
    const turn = new SseReader(await postStreamingTurn(server, 'c1', 'slowly'));
    await turn.readUntil((event) => event.event === 'agent_output');
    server.child.kill('SIGTERM');
    await waitForLog(server, 'draining');
    server.child.kill('SIGINT');
    const rest = await turn.readUntil((event) => event.event === 'done');
    expect(JSON.parse(rest.at(-1)?.data ?? '{}')).toMatchObject({ success: false });
    expect(await server.exited).toBe(0);
    expect(server.logs().at(-1)).toMatchObject({ msg: 'stopped', abortedTurns: 1 });
    expect((await storedMessages(dataDir, 'c1')).at(-1)).toMatchObject({ errorCode: 'LLM_ABORTED' });
  });
});
