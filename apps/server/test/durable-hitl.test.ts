import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type MockProviderServer, startMockProviderServer } from '@cairn/testing';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { jsonBody } from './support/json-body.js';
import { type PinnedWorker, pinnedWorker } from './support/pinned-worker.js';
import {
  type ServerProcess,
  serverEnv,
  startServerProcess,
  stopServerAndMock,
  TOKEN,
  tempDir,
} from './support/server-process.js';

// The real binary, killed (SIGKILL) at the worst moments and another process on the same store
// taking over: nothing lost, nothing run twice that is not declared idempotent, no decision twice.

const STORES = ['fs', 'sqlite', 'postgres'] as const;

let server: ServerProcess | undefined;
let mock: MockProviderServer | undefined;

afterEach(async () => {
  await stopServerAndMock(server, mock);
  server = undefined;
  mock = undefined;
});

interface Message {
  role: string;
  content?: unknown;
  partType?: string;
  interrupted?: boolean;
  toolIntent?: { attempt: number };
}

const lastRole = (body: unknown) =>
  ((body as { messages?: Array<{ role: string }> }).messages ?? []).at(-1)?.role;

/** A model that calls run_command with `command`, then, once it has the result, says `Done.` */
async function startCommandModel(command: string): Promise<MockProviderServer> {
  mock = await startMockProviderServer({
    provider: 'openai',
    turns: (request) =>
      lastRole(request.body) === 'tool'
        ? { text: 'Done.' }
        : { toolCalls: [{ id: 'call_1', name: 'run_command', arguments: { command } }] },
  });
  return mock;
}

function placeFor(store: (typeof STORES)[number]) {
  const dataDir = tempDir(`hitl-${store}`);
  const workspace = tempDir(`hitl-ws-${store}`);
  return {
    workspace,
    dataDir,
    start(extra: string[] = [], workers = 1) {
      const env = serverEnv(dataDir, {
        CAIRN_API_TOKEN: TOKEN,
        OPENAI_BASE_URL: (mock as MockProviderServer).baseURL,
        CAIRN_MODEL: 'mock-model',
        ...(store === 'postgres' ? { DATABASE_URL: inject('databaseUrl') } : {}),
      });
      return startServerProcess(
        ['--store', store, '--workers', String(workers), '--workspace', workspace, ...extra],
        env,
      );
    },
  };
}

async function kill(process: ServerProcess): Promise<void> {
  process.child.kill('SIGKILL');
  await process.exited;
}

const effectLines = (workspace: string) => {
  const file = join(workspace, 'effects.txt');
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
};

async function logOf(process: ServerProcess, id: string): Promise<Message[]> {
  return (
    await jsonBody<{ messages: Message[] }>(
      await process.request(`/v1/conversations/${id}/messages?limit=1000`),
    )
  ).messages;
}

/**
 * Starts a one-step workflow run whose step runs a command, and SIGKILLs the server while the command
 * runs. Returns the flags the next server takes the run over with.
 */
async function runKilledMidStep(place: ReturnType<typeof placeFor>) {
  const workflow = join(place.dataDir, 'greeting.yaml');
  writeFileSync(
    workflow,
    [
      'id: greet',
      'name: Greet',
      'entry: hello',
      'nodes:',
      '  - { id: hello, name: Hello, instruction: Greet. }',
      'edges: []',
    ].join('\n'),
  );
  const flags = ['--allow-commands', '--workflows', workflow, '--run-lease-ttl', '2'];
  const runId = `r-${randomUUID()}`;
  const killed = await place.start(flags);
  const started = killed
    .request('/v1/runs', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ workflow: 'greeting/greet', runId }),
    })
    .catch(() => undefined);
  await expect.poll(() => effectLines(place.workspace), { timeout: 15_000 }).toEqual(['started']);
  await kill(killed);
  await started;
  return { flags, runId };
}

describe.each(STORES)('approvals and the tool ledger, the real binary on %s', (store) => {
  it('keeps a pending approval when the process is killed; another decides it once and runs it once', async () => {
    await startCommandModel('echo ran >> effects.txt');
    const place = placeFor(store);
    const id = `c-${randomUUID()}`;
    server = await place.start();
    const first = await jsonBody<{ waiting: Array<{ id: string }> }>(
      await server.request(`/v1/conversations/${id}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'Record that it ran' }),
      }),
    );
    const approvalId = first.waiting[0]?.id as string;
    expect(approvalId).toBeDefined();
    await kill(server);

    server = await place.start();
    const listed = await jsonBody<{ approvals: Array<{ id: string; status: string }> }>(
      await server.request(`/v1/conversations/${id}/approvals`),
    );
    expect(listed.approvals).toMatchObject([{ id: approvalId, status: 'pending' }]);
    const decide = (decision: string) =>
      (server as ServerProcess).request(`/v1/conversations/${id}/approvals/${approvalId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ decision }),
      });
    const approved = await decide('approve');
    expect(approved.status).toBe(200);
    expect(await jsonBody(approved)).toMatchObject({ success: true, message: { content: 'Done.' } });
    expect((await decide('approve')).status).toBe(409);
    expect(effectLines(place.workspace)).toEqual(['ran']);
    const log = await logOf(server, id);
    expect(log.filter((message) => message.partType === 'approval_decision')).toHaveLength(1);
  });

  it('answers a command killed mid-run "not retried" on resume, and never runs it again', async () => {
    await startCommandModel('echo started >> effects.txt; sleep 30');
    const place = placeFor(store);
    const id = `c-${randomUUID()}`;
    server = await place.start(['--allow-commands']);
    const turn = server
      .request(`/v1/conversations/${id}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'Start the job' }),
      })
      .catch(() => undefined);
    await expect.poll(() => effectLines(place.workspace), { timeout: 15_000 }).toEqual(['started']);
    await kill(server);
    await turn;

    server = await place.start(['--allow-commands']);
    const resumed = await server.request(`/v1/conversations/${id}/resume`, { method: 'POST' });
    expect(resumed.status).toBe(200);
    expect(await jsonBody(resumed)).toMatchObject({ success: true, message: { content: 'Done.' } });
    expect(effectLines(place.workspace)).toEqual(['started']);
    const log = await logOf(server, id);
    expect(
      log.filter((message) => message.partType === 'tool_intent').map((m) => m.toolIntent?.attempt),
    ).toEqual([1]);
    const results = log.filter((message) => message.role === 'tool');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ interrupted: true, content: expect.stringMatching(/not run again/) });
    // The model was asked once after the kill, with the call answered.
    const afterKill = mock?.requests.at(-1)?.body as { messages: Message[] };
    expect(afterKill.messages.at(-1)).toMatchObject({ role: 'tool' });
  });

  it('moves a run whose process was killed mid-step to the next process, without repeating the call', async () => {
    await startCommandModel('echo started >> effects.txt; sleep 30');
    const place = placeFor(store);
    const { flags, runId } = await runKilledMidStep(place);

    // Nobody asks B for anything: its supervisor finds the run, takes its lease once it lapsed, goes on.
    server = await place.start(flags);
    const runLog = async () =>
      (
        await jsonBody<{ messages: Message[] }>(
          await (server as ServerProcess).request(`/v1/conversations/run-${runId}/messages?limit=1000`),
        )
      ).messages;
    await expect
      .poll(async () => (await runLog()).filter((m) => m.role === 'assistant').at(-1)?.content, {
        timeout: 20_000,
      })
      .toBe('Done.');
    expect(effectLines(place.workspace)).toEqual(['started']);
    const log = await runLog();
    expect(log.filter((message) => message.partType === 'tool_intent')).toHaveLength(1);
    expect(log.find((message) => message.role === 'tool')).toMatchObject({ interrupted: true });
    expect(server.logs().some((line) => line.msg === 'run taken over')).toBe(true);
  });

  it('lets exactly one of two workers deciding the same approval at once win; the call runs once', async () => {
    await startCommandModel('echo ran >> effects.txt');
    const place = placeFor(store);
    const id = `c-${randomUUID()}`;
    server = await place.start([], 2);
    const url = server.url;
    const workers: PinnedWorker[] = [
      await pinnedWorker(url, '1', TOKEN),
      await pinnedWorker(url, '2', TOKEN),
    ];
    try {
      const first = await jsonBody<{ waiting: Array<{ id: string }> }>(
        await (workers[0] as PinnedWorker).request(`/v1/conversations/${id}/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ content: 'Record that it ran' }),
        }),
      );
      const approvalId = first.waiting[0]?.id as string;
      const answers = await Promise.all(
        workers.map((worker) =>
          worker.request(`/v1/conversations/${id}/approvals/${approvalId}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ decision: 'approve' }),
          }),
        ),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      for (const answer of answers) await answer.arrayBuffer();
      expect(effectLines(place.workspace)).toEqual(['ran']);
      const log = await logOf(server, id);
      expect(log.filter((message) => message.partType === 'approval_decision')).toHaveLength(1);
    } finally {
      for (const worker of workers) worker.close();
    }
  });
});

describe('stopping the real binary while it finishes a run it took over', () => {
  it('refuses new turns at once and lets the run’s turn finish within the same grace period', async () => {
    // The taken-over turn's answer streams for about four seconds.
    mock = await startMockProviderServer({
      provider: 'openai',
      turns: (request) =>
        lastRole(request.body) === 'tool'
          ? { text: 'Done, taking my time.', chunkSize: 1, chunkDelayMs: 200 }
          : {
              toolCalls: [
                {
                  id: 'call_1',
                  name: 'run_command',
                  arguments: { command: 'echo started >> effects.txt; sleep 30' },
                },
              ],
            },
    });
    const place = placeFor('fs');
    const { flags, runId } = await runKilledMidStep(place);
    server = await place.start([...flags, '--grace-period', '30']);
    const taking = server;
    // The supervisor took the run over: the interrupted call is answered, the model now answers slowly.
    await expect
      .poll(async () => (await logOf(taking, `run-${runId}`)).some((message) => message.role === 'tool'), {
        timeout: 20_000,
      })
      .toBe(true);
    taking.child.kill('SIGTERM');
    await expect.poll(() => taking.logs().some((line) => String(line.msg).startsWith('draining'))).toBe(true);
    // Draining: no new turn is taken while the run's turn finishes.
    const refused = await taking
      .request(`/v1/conversations/c-${randomUUID()}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'One more thing' }),
      })
      .catch(() => undefined);
    expect(refused === undefined || refused.status === 503).toBe(true);
    expect(await taking.exited).toBe(0);
    // The supervisor's line, after the turn (the runtime's own comes before it).
    const finished = taking.logs().filter((line) => line.msg === 'run taken over' && 'success' in line);
    expect(finished).toEqual([expect.objectContaining({ runId, success: true })]);
    expect(effectLines(place.workspace)).toEqual(['started']);
  });
});
