import { mkdir, realpath, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentOutput, ConversationMessage, ConversationStore } from '@cairn/core';
import { createAgentRuntime } from '@cairn/runtime';
import { createMemoryConversationStore } from '@cairn/storage';
import { ScriptedModel } from '@cairn/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentSessionsOptions } from '../src/app/agent-sessions/agent-session-options.js';
import type { ServerAppOptions } from '../src/app/create-server-app.js';
import { createInProcessEventBus } from '../src/events/in-process-event-bus.js';
import { createInProcessTurnLock } from '../src/turn-lock/in-process-turn-lock.js';
import {
  CLAUDE_TRANSCRIPT,
  type FakeAgentBehaviour,
  GEMINI_TRANSCRIPT,
  installFakeAgent,
  readRuns,
  TRANSCRIPT_PROMPT,
  tempDir,
} from './support/agent-fake-cli.js';
import { errorCode, jsonBody } from './support/json-body.js';
import { type SseEvent, SseReader } from './support/read-sse.js';
import { type AppServer, serveApp } from './support/serve-app.js';
import { waitFor } from './support/start-test-server.js';

interface SessionBody {
  conversationId: string;
  runId: string;
  sessionId?: string;
  success: boolean;
  exitCode: number | null;
  error?: { code: string; message: string };
  result?: string;
  messages: ConversationMessage[];
}

let server: AppServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Setup {
  app: AppServer;
  store: ConversationStore;
  /** The workspace root (its real path) with a `proj` directory. */
  root: string;
  argvFile: string;
}

async function setUp(
  options: {
    behaviour?: Partial<FakeAgentBehaviour>;
    agentSessions?: Partial<AgentSessionsOptions> | false;
    app?: Partial<ServerAppOptions>;
  } = {},
): Promise<Setup> {
  const root = await realpath(await tempDir());
  await mkdir(join(root, 'proj'));
  const bin = await tempDir();
  const argvFile = join(bin, 'runs.jsonl');
  const claude = await installFakeAgent(bin, 'claude', {
    transcript: CLAUDE_TRANSCRIPT,
    argvFile,
    ...options.behaviour,
  });
  const gemini = await installFakeAgent(bin, 'gemini', {
    transcript: GEMINI_TRANSCRIPT,
    argvFile,
    ...options.behaviour,
  });
  const store = createMemoryConversationStore();
  const runtime = createAgentRuntime({
    store,
    model: new ScriptedModel({ turns: [] }),
    settings: { compression: false },
  });
  const app = await serveApp({
    store,
    runtime,
    events: createInProcessEventBus(),
    turnLock: createInProcessTurnLock(),
    ...(options.agentSessions === false
      ? {}
      : { agentSessions: { workspaceRoot: root, commands: { claude, gemini }, ...options.agentSessions } }),
    ...options.app,
  });
  server = app;
  return { app, store, root, argvFile };
}

const session = (app: AppServer, body: unknown, accept?: string) =>
  app.post('/v1/agent-sessions', body, accept);

describe('agent sessions disabled', () => {
  it('answers 404 saying how to enable them, whatever the request, and stores nothing', async () => {
    const { app, store, argvFile } = await setUp({ agentSessions: false });
    for (const response of [
      await session(app, { agent: 'claude', prompt: 'Hi' }),
      await session(app, {}),
      await app.post('/v1/agent-sessions/agent-1/abort'),
      await app.post('/v1/agent-sessions/.bad/abort'),
    ]) {
      expect(response.status).toBe(404);
      const body = await jsonBody<{ error: { code: string; message: string } }>(response);
      expect(body.error.code).toBe('AGENT_SESSIONS_DISABLED');
      expect(body.error.message).toMatch(/agent sessions are disabled.*agentSessions option/);
    }
    expect(await readRuns(argvFile)).toEqual([]);
    expect((await store.listConversations()).conversations).toEqual([]);
  });

  it('refuses bad options when the app is made', async () => {
    await expect(setUp({ agentSessions: { workspaceRoot: 'relative/root' } })).rejects.toThrow(
      'agentSessions.workspaceRoot must be an absolute path',
    );
  });
});

describe('POST /v1/agent-sessions', () => {
  it('runs Claude Code in the directory asked for and stores its work, answered as JSON', async () => {
    const { app, store, root, argvFile } = await setUp({ agentSessions: { passEnv: ['AGENT_KEY'] } });
    // The agent runs code the model wrote: it gets only the basic variables and those passed on.
    const watched = {
      CAIRN_API_TOKEN: 'server-secret-token-0123456789',
      DATABASE_URL: 'postgres://secret@db/cairn',
      OPENAI_API_KEY: 'sk-server-model-key',
      PGPASSWORD: 'pw',
      AGENT_KEY: 'the-agent-s-own-key',
    };
    const saved = Object.fromEntries(Object.keys(watched).map((name) => [name, process.env[name]]));
    Object.assign(process.env, watched);
    const response = await session(app, { agent: 'claude', prompt: TRANSCRIPT_PROMPT, cwd: 'proj' }).finally(
      () => {
        for (const [name, value] of Object.entries(saved)) {
          if (value === undefined) delete process.env[name];
          else process.env[name] = value;
        }
      },
    );
    expect(response.status).toBe(200);
    const body = await jsonBody<SessionBody>(response);
    expect(body).toMatchObject({
      conversationId: expect.stringMatching(/^agent-[0-9a-f-]{36}$/),
      sessionId: CLAUDE_TRANSCRIPT.sessionId,
      success: true,
      exitCode: 0,
      result: expect.stringMatching(/^Done\. I created hello\.txt/),
    });
    expect(body.error).toBeUndefined();

    expect(await readRuns(argvFile)).toEqual([
      {
        // Read-only unless the request asks for more.
        args: [
          '-p',
          '--output-format',
          'stream-json',
          '--verbose',
          '--permission-mode=default',
          '--',
          TRANSCRIPT_PROMPT,
        ],
        cwd: join(root, 'proj'),
        secrets: ['AGENT_KEY'],
      },
    ]);
    const stored = await store.load(body.conversationId);
    expect(stored).toEqual(body.messages);
    expect(stored[0]).toMatchObject({
      seq: 1,
      role: 'user',
      content: TRANSCRIPT_PROMPT,
      mode: 'agent',
      runId: body.runId,
    });
    expect(stored.filter((message) => message.role === 'tool').map((message) => message.toolName)).toEqual([
      'Write',
      'Edit',
      'Bash',
      'Read',
    ]);
    expect(stored.at(-1)).toMatchObject({ role: 'assistant', content: expect.stringMatching(/^Done\./) });
    // The raw transcript is kept, as the executor does.
    const transcript = await store.getBlob(`agent-transcripts/${body.conversationId}/${body.runId}.jsonl`);
    expect(new TextDecoder().decode(transcript)).toContain(CLAUDE_TRANSCRIPT.sessionId);
  });

  it('streams Gemini CLI: agent output, each stored message with its seq, then done', async () => {
    const { app, store, root } = await setUp();
    const response = await session(app, { agent: 'gemini', prompt: TRANSCRIPT_PROMPT }, 'text/event-stream');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = await new SseReader(response).readUntil((event) => event.event === 'done');
    const outputs = events
      .filter((event) => event.event === 'agent_output')
      .map((event) => JSON.parse(event.data) as AgentOutput);
    expect(outputs[0]).toMatchObject({
      type: 'session_start',
      sessionId: GEMINI_TRANSCRIPT.sessionId,
      cwd: root,
    });
    expect(outputs.filter((output) => output.type === 'tool_use').length).toBe(4);
    const messages = events.filter((event) => event.event === 'message');
    const first = JSON.parse(messages[0]?.data ?? '{}') as ConversationMessage;
    expect(first).toMatchObject({ role: 'user', content: TRANSCRIPT_PROMPT });
    const stored = await store.load(await waitForConversation(store));
    expect(messages.map((event) => event.id)).toEqual(stored.map((message) => String(message.seq)));
    // The echoed prompt is not stored twice.
    expect(stored.filter((message) => message.role === 'user')).toHaveLength(1);
    expect(events.at(-1)).toEqual({ event: 'done', data: JSON.stringify({ success: true }) });
  });

  it('resumes the agent session of a conversation in the same directory, and refuses another', async () => {
    const { app, store, root, argvFile } = await setUp();
    await mkdir(join(root, 'other'));
    const first = await jsonBody<SessionBody>(
      await session(app, { agent: 'claude', prompt: 'Start', cwd: 'proj' }),
    );
    const second = await session(app, {
      agent: 'claude',
      prompt: 'And now?',
      cwd: 'proj',
      conversationId: first.conversationId,
    });
    expect(second.status).toBe(200);
    expect((await jsonBody<SessionBody>(second)).conversationId).toBe(first.conversationId);
    const runs = await readRuns(argvFile);
    expect(runs[1]?.args).toEqual([
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      `--resume=${CLAUDE_TRANSCRIPT.sessionId}`,
      '--permission-mode=default',
      '--',
      'And now?',
    ]);
    const users = (await store.load(first.conversationId)).filter((message) => message.role === 'user');
    expect(users.map((message) => message.content)).toEqual(['Start', 'And now?']);

    const elsewhere = await session(app, {
      agent: 'claude',
      prompt: 'From elsewhere',
      cwd: 'other',
      conversationId: first.conversationId,
    });
    expect(elsewhere.status).toBe(400);
    const refused = await jsonBody<{ error: { code: string; message: string } }>(elsewhere);
    expect(refused.error.code).toBe('INVALID_ARGUMENT');
    expect(refused.error.message).toContain('recorded in cwd "proj", not "other"');
    expect(refused.error.message).not.toContain('/');
    // Another agent has no session there; nor has a conversation that does not exist.
    for (const body of [
      { agent: 'gemini', prompt: 'Hi', cwd: 'proj', conversationId: first.conversationId },
      { agent: 'claude', prompt: 'Hi', conversationId: 'agent-unknown' },
    ]) {
      const response = await session(app, body, 'text/event-stream');
      expect(response.status).toBe(400);
      expect(await errorCode(response)).toBe('INVALID_ARGUMENT');
    }
    expect(await readRuns(argvFile)).toHaveLength(2);
    expect(
      (await store.load(first.conversationId)).filter((message) => message.role === 'user'),
    ).toHaveLength(2);
  });

  it('refuses a cwd outside the workspace root, missing or not a directory, before running anything', async () => {
    const { app, store, root, argvFile } = await setUp();
    const outside = await tempDir();
    await symlink(outside, join(root, 'escape'));
    await symlink(join(root, 'proj'), join(root, 'inside'));
    await writeFile(join(root, 'file.txt'), 'not a directory');
    for (const [cwd, message] of [
      ['../', 'body.cwd: must not contain `..`'],
      ['proj/../../x', 'body.cwd: must not contain `..`'],
      ['..\\x', 'body.cwd: must not contain `..`'],
      ['/etc', 'body.cwd: must be a path relative to the workspace root'],
      [outside, 'body.cwd: must be a path relative to the workspace root'],
      ['C:\\Windows', 'body.cwd: must be a path relative to the workspace root'],
      ['escape', 'cwd "escape" leads outside the workspace root'],
      ['escape/sub', 'cwd "escape/sub" does not exist in the workspace'],
      ['missing', 'cwd "missing" does not exist in the workspace'],
      ['file.txt', 'cwd "file.txt" is not a directory'],
    ]) {
      const response = await session(app, { agent: 'claude', prompt: 'Hi', cwd });
      expect(response.status, cwd).toBe(400);
      expect(await jsonBody(response), cwd).toEqual({ error: { code: 'INVALID_ARGUMENT', message } });
    }
    expect(await readRuns(argvFile)).toEqual([]);
    expect((await store.listConversations()).conversations).toEqual([]);
    // A link that stays inside the root is fine: the agent runs in the real directory.
    expect((await session(app, { agent: 'claude', prompt: 'Hi', cwd: 'inside' })).status).toBe(200);
    expect((await readRuns(argvFile))[0]?.cwd).toBe(join(root, 'proj'));
  });

  it('validates the body and ids, and runs only the agents enabled', async () => {
    const { app, argvFile } = await setUp({ agentSessions: { agents: ['claude'] } });
    for (const body of [
      { agent: 'aider', prompt: 'Hi' },
      { agent: 'claude', prompt: '  ' },
      { agent: 'claude' },
      { agent: 'claude', prompt: 'Hi', conversationId: '../x' },
      { agent: 'claude', prompt: 'Hi', cwd: '' },
      { agent: 'gemini', prompt: 'Hi' },
    ]) {
      const response = await session(app, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await errorCode(response)).toBe('INVALID_ARGUMENT');
    }
    const gemini = await jsonBody<{ error: { message: string } }>(
      await session(app, { agent: 'gemini', prompt: 'Hi' }),
    );
    expect(gemini.error.message).toBe('agent gemini is not enabled on this server');
    const badId = await app.post('/v1/agent-sessions/.hidden/abort');
    expect(badId.status).toBe(400);
    expect(await errorCode(badId)).toBe('INVALID_ID');
    expect(await readRuns(argvFile)).toEqual([]);
  });

  it('passes permissions the server allows as the CLI flags, and refuses others before running anything', async () => {
    const { app, argvFile } = await setUp({
      agentSessions: { permissionModes: ['read-only', 'edit', 'full'] },
    });
    const gemini = await session(app, {
      agent: 'gemini',
      prompt: TRANSCRIPT_PROMPT,
      permissions: { mode: 'full', allowedTools: ['run_shell_command(git)'] },
    });
    expect(gemini.status).toBe(200);
    expect((await readRuns(argvFile)).map((run) => run.args.slice(3))).toEqual([
      ['--approval-mode=yolo', '--allowed-tools=run_shell_command(git)'],
    ]);
    // Never raw arguments: the mode is one of three, tools are names with a rule, nothing else is accepted.
    for (const permissions of [
      { mode: 'yolo' },
      { mode: 'edit', allowedTools: ['--dangerously-skip-permissions'] },
      { mode: 'edit', allowedTools: ['Read,Write'] },
      { mode: 'edit', args: ['--yolo'] },
      '--yolo',
    ]) {
      const response = await session(app, { agent: 'claude', prompt: 'Hi', permissions });
      expect(response.status, JSON.stringify(permissions)).toBe(400);
      expect(await errorCode(response)).toBe('INVALID_ARGUMENT');
    }
    expect(await readRuns(argvFile)).toHaveLength(1);
  });

  it('allows read-only and edit by default; full and tool rules only when the server says so', async () => {
    const { app, argvFile } = await setUp();
    const edit = await session(app, {
      agent: 'claude',
      prompt: TRANSCRIPT_PROMPT,
      permissions: { mode: 'edit' },
    });
    expect(edit.status).toBe(200);
    expect((await readRuns(argvFile))[0]?.args).toContain('--permission-mode=acceptEdits');
    const full = await jsonBody<{ error: { message: string } }>(
      await session(app, { agent: 'claude', prompt: 'Hi', permissions: { mode: 'full' } }),
    );
    expect(full.error.message).toBe(
      'permissions.mode full is not allowed on this server (allowed: read-only, edit)',
    );
    const tools = await session(app, {
      agent: 'claude',
      prompt: 'Hi',
      permissions: { mode: 'read-only', allowedTools: ['Bash(npm test)'] },
    });
    expect(tools.status).toBe(400);
    expect(await readRuns(argvFile)).toHaveLength(1);
    await expect(setUp({ agentSessions: { permissionModes: ['everything' as 'full'] } })).rejects.toThrow(
      'agentSessions.permissionModes must list modes among read-only, edit, full',
    );
  });

  it('answers a failed agent with success false and stores the failure', async () => {
    const { app, store } = await setUp({ behaviour: { lines: 1, exitCode: 3, stderr: 'quota exceeded\n' } });
    const body = await jsonBody<SessionBody>(await session(app, { agent: 'claude', prompt: 'Hi' }));
    expect(body).toMatchObject({
      success: false,
      exitCode: 3,
      error: { code: 'AGENT_FAILED', message: expect.stringContaining('quota exceeded') },
    });
    const stored = await store.load(body.conversationId);
    expect(stored.at(-1)).toMatchObject({ partType: 'error', errorCode: 'AGENT_FAILED' });
  });
});

// The real Claude Code capture of `sleep 30` (init, text, the Bash call, then what C-c gave).
const SLEEP_TRANSCRIPT = {
  file: fileURLToPath(
    new URL('../../../packages/agent-cli/fixtures/real/claude-code/sigint-sleep.jsonl', import.meta.url),
  ),
  recordedCwd: '/home/dev/worker/w/sleep-direct',
};

describe('live display of a running agent session', () => {
  it('streams the call as running while the tool runs, then the finished execution under the same id', async () => {
    // The agent prints the call and hangs, as Claude Code does while `sleep 30` runs.
    const { app, store } = await setUp({ behaviour: { transcript: SLEEP_TRANSCRIPT, lines: 3, hang: true } });
    const reader = new SseReader(
      await session(app, { agent: 'claude', prompt: 'Wait.' }, 'text/event-stream'),
    );
    const isRunning = (event: SseEvent) =>
      event.event === 'display' &&
      (JSON.parse(event.data) as ConversationMessage).toolExecution?.status === 'running';
    const before = await reader.readUntil(isRunning);
    const shown = (events: SseEvent[]) =>
      events
        .filter((event) => event.event === 'display')
        .map((event) => JSON.parse(event.data) as ConversationMessage);
    // Only the prompt is stored yet: the text and the call come from the live display.
    expect(before.filter((event) => event.event === 'message')).toHaveLength(1);
    expect(shown(before).map((message) => [message.role, message.partType, message.content])).toEqual([
      ['user', undefined, 'Wait.'],
      ['assistant', undefined, 'Waiting a while.'],
      ['assistant', 'tool_execution', 'Running Bash: sleep 30'],
    ]);
    const running = shown(before).at(-1);
    expect(running?.toolExecution).toMatchObject({
      toolName: 'Bash',
      status: 'running',
      input: { command: 'sleep 30' },
    });

    const id = await waitForConversation(store);
    expect((await app.post(`/v1/agent-sessions/${id}/abort`)).status).toBe(202);
    const after = shown(await reader.readUntil((event) => event.event === 'done'));
    // The aborted call replaces the running one (same id); the text is not sent twice.
    expect(after.map((message) => [message.id === running?.id, message.partType, message.content])).toEqual([
      [true, 'tool_execution', 'Bash did not finish'],
      [false, 'error', 'The run was aborted'],
    ]);
    expect(after[0]?.toolExecution?.status).toBe('unfinished');
  });
});

describe('running agent sessions: abort, the turn cap and the turn lock', () => {
  it('stops the agent on POST /v1/agent-sessions/:id/abort; the abort is stored', async () => {
    const { app, store } = await setUp({ behaviour: { lines: 1, hang: true } });
    const reader = new SseReader(
      await session(app, { agent: 'claude', prompt: 'Work forever' }, 'text/event-stream'),
    );
    const first = await reader.next();
    expect(first?.event).toBe('message');
    const id = await waitForConversation(store);
    await reader.readUntil((event) => event.event === 'agent_output');
    const abort = await app.post(`/v1/agent-sessions/${id}/abort`);
    expect(abort.status).toBe(202);
    expect(await jsonBody(abort)).toEqual({ aborted: true });
    const events = await reader.readUntil((event) => event.event === 'done');
    expect(JSON.parse(events.at(-1)?.data ?? '{}')).toMatchObject({
      success: false,
      error: { code: 'LLM_ABORTED' },
    });
    expect((await store.load(id)).at(-1)).toMatchObject({ partType: 'error', errorCode: 'LLM_ABORTED' });
    expect(app.handle.activeTurns()).toBe(0);
    expect(await jsonBody(await app.post(`/v1/agent-sessions/${id}/abort`))).toEqual({ aborted: false });
  });

  it('counts sessions against the turn cap, and a session waits for a turn of its conversation', async () => {
    const release = join(await tempDir(), 'release');
    const { app, store } = await setUp({
      behaviour: { releaseFile: release },
      app: { maxConcurrentTurns: 2 },
    });
    const first = session(app, { agent: 'claude', prompt: 'First' });
    await waitFor(() => app.handle.activeTurns() === 1);
    const id = await waitForConversation(store);
    // The same conversation: queued behind the running session on the turn lock (not interleaved).
    const resumed = session(app, { agent: 'claude', prompt: 'Second', conversationId: id });
    await waitFor(() => app.handle.activeTurns() === 2);
    const capped = await session(app, { agent: 'claude', prompt: 'Third' });
    expect(capped.status).toBe(429);
    expect(await errorCode(capped)).toBe('TOO_MANY_TURNS');
    const chat = await app.post(`/v1/conversations/${id}/messages`, { content: 'a chat turn' });
    expect(chat.status).toBe(429);

    await writeFile(release, '');
    expect((await jsonBody<SessionBody>(await first)).success).toBe(true);
    expect((await jsonBody<SessionBody>(await resumed)).success).toBe(true);
    const stored = await store.load(id);
    const prompts = stored.filter((message) => message.role === 'user').map((message) => message.seq);
    // The second run's prompt comes after every message of the first run.
    const firstRun = stored.filter((message) => message.runId === stored[0]?.runId);
    expect(prompts).toEqual([1, (firstRun.at(-1)?.seq ?? 0) + 1]);
  });
});

describe('auth and the OpenAPI document', () => {
  it('needs the token and documents the routes', async () => {
    const { app } = await setUp({ app: { apiToken: 'secret-token-0123456789' } });
    expect((await fetch(`${app.baseURL}/v1/agent-sessions`, { method: 'POST' })).status).toBe(401);
    expect((await fetch(`${app.baseURL}/v1/agent-sessions/a/abort`, { method: 'POST' })).status).toBe(401);
    const document = await jsonBody<{
      paths: Record<string, Record<string, { responses: object }>>;
      components: { schemas: object };
    }>(await fetch(`${app.baseURL}/openapi.json`));
    expect(Object.keys(document.paths['/v1/agent-sessions']?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '400', '401', '404', '429']),
    );
    expect(document.paths['/v1/agent-sessions/{id}/abort']?.post).toBeDefined();
    expect(document.components.schemas).toHaveProperty('AgentSessionRequest');
    expect(document.components.schemas).toHaveProperty('AgentSessionResult');
  });
});

function waitForConversation(store: ConversationStore): Promise<string> {
  return vi.waitFor(
    async () => {
      const id = (await store.listConversations()).conversations[0]?.id;
      if (id === undefined) throw new Error('no conversation was stored');
      return id;
    },
    { timeout: 5_000, interval: 10 },
  );
}

describe('agent sessions on the real CLIs: retries and API errors', () => {
  // Claude Code 2.1.197's recording of a 500 retried, then 529 until its retries ran out.
  const CLAUDE_APIERR = {
    file: fileURLToPath(
      new URL('../../../packages/agent-cli/fixtures/real/claude-code/apierr.jsonl', import.meta.url),
    ),
    recordedCwd: '/home/dev/worker/w/apierr-direct',
  };

  it('streams each retry as an agent_output event and ends with the API error as the one failure', async () => {
    const { app, store } = await setUp({ behaviour: { transcript: CLAUDE_APIERR, exitCode: 1 } });
    const response = await session(app, { agent: 'claude', prompt: 'Do two steps.' }, 'text/event-stream');
    const events = await new SseReader(response).readUntil((event) => event.event === 'done');
    const outputs = events
      .filter((event) => event.event === 'agent_output')
      .map((event) => JSON.parse(event.data) as AgentOutput);
    const retries = outputs.filter((output) => output.type === 'retry');
    expect(retries.map((retry) => retry.type === 'retry' && [retry.attempt, retry.status])).toEqual([
      [1, 500],
      [1, 529],
      [2, 529],
    ]);
    const done = JSON.parse(events.at(-1)?.data ?? '{}') as { success: boolean; error?: { code: string } };
    expect(done).toMatchObject({ success: false, error: { code: 'LLM_UNAVAILABLE' } });
    const stored = await store.load(await waitForConversation(store));
    expect(stored.filter((message) => message.partType === 'error')).toEqual([
      expect.objectContaining({ errorCode: 'LLM_UNAVAILABLE' }),
    ]);
  });
});
