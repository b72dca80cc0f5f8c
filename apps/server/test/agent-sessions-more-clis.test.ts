import { mkdir, readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConversationMessage } from '@cairn/core';
import { createAgentRuntime } from '@cairn/runtime';
import { createMemoryConversationStore } from '@cairn/storage';
import { ScriptedModel } from '@cairn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createInProcessEventBus } from '../src/events/in-process-event-bus.js';
import { createInProcessTurnLock } from '../src/turn-lock/in-process-turn-lock.js';
import { installFakeAgent, readRuns, tempDir } from './support/agent-fake-cli.js';
import { jsonBody } from './support/json-body.js';
import { type AppServer, serveApp } from './support/serve-app.js';

// Real Codex CLI 0.171.0 runs (packages/agent-cli/fixtures/real/codex), replayed by the fake agent.
const fixture = (name: string) =>
  fileURLToPath(new URL(`../../../packages/agent-cli/fixtures/real/codex/${name}.jsonl`, import.meta.url));
const RECORDED_CWD = '/var/tmp/cairn-codex-fixtures/w/main';
const PROMPT = 'Create hello.txt, edit it, list the directory, then read does-not-exist.txt.';
const READ_ONLY_CODEX = ['-c', 'sandbox_mode="read-only"', '-c', 'approval_policy="never"'];

let server: AppServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface SessionBody {
  conversationId: string;
  sessionId?: string;
  success: boolean;
  result?: string;
  messages: ConversationMessage[];
}

describe('POST /v1/agent-sessions with agent codex or qwen', () => {
  it('runs Codex CLI, stores its work, and resumes its thread with exec resume', async () => {
    const root = await realpath(await tempDir());
    await mkdir(join(root, 'proj'));
    const bin = await tempDir();
    const argvFile = join(bin, 'runs.jsonl');
    const codex = await installFakeAgent(bin, 'codex', {
      transcript: { file: fixture('main'), recordedCwd: RECORDED_CWD },
      argvFile,
    });
    const store = createMemoryConversationStore();
    server = await serveApp({
      store,
      runtime: createAgentRuntime({
        store,
        model: new ScriptedModel({ turns: [] }),
        settings: { compression: false },
      }),
      events: createInProcessEventBus(),
      turnLock: createInProcessTurnLock(),
      agentSessions: { workspaceRoot: root, commands: { codex } },
    });
    const threadId = JSON.parse((await readFile(fixture('main'), 'utf8')).split('\n')[0] ?? '').thread_id;

    const first = await server.post('/v1/agent-sessions', { agent: 'codex', prompt: PROMPT, cwd: 'proj' });
    expect(first.status).toBe(200);
    const body = await jsonBody<SessionBody>(first);
    expect(body).toMatchObject({
      sessionId: threadId,
      success: true,
      result: 'Done: hello.txt says Hello, Cairn!',
    });
    expect(
      body.messages.filter((message) => message.role === 'tool').map((message) => message.toolName),
    ).toEqual(['file_change', 'file_change', 'command_execution', 'command_execution']);

    const again = await server.post('/v1/agent-sessions', {
      agent: 'codex',
      prompt: 'And now?',
      cwd: 'proj',
      conversationId: body.conversationId,
    });
    expect(again.status).toBe(200);
    expect((await readRuns(argvFile)).map((run) => run.args)).toEqual([
      // The server's default read-only permissions, as Codex's sandbox mode.
      ['exec', '--json', ...READ_ONLY_CODEX, '--', PROMPT],
      ['exec', 'resume', threadId, '--json', ...READ_ONLY_CODEX, '--', 'And now?'],
    ]);
  });

  it('runs Qwen Code (agent qwen) with its own converter', async () => {
    const root = await realpath(await tempDir());
    await mkdir(join(root, 'proj'));
    const bin = await tempDir();
    const argvFile = join(bin, 'runs.jsonl');
    const qwenFixture = fileURLToPath(
      new URL('../../../packages/agent-cli/fixtures/real/qwen-code/main.jsonl', import.meta.url),
    );
    const qwen = await installFakeAgent(bin, 'qwen', {
      transcript: { file: qwenFixture, recordedCwd: '/var/tmp/cairn-qwen-code-fixtures/w/main' },
      argvFile,
    });
    const store = createMemoryConversationStore();
    server = await serveApp({
      store,
      runtime: createAgentRuntime({
        store,
        model: new ScriptedModel({ turns: [] }),
        settings: { compression: false },
      }),
      events: createInProcessEventBus(),
      turnLock: createInProcessTurnLock(),
      agentSessions: { workspaceRoot: root, commands: { qwen } },
    });
    const response = await server.post('/v1/agent-sessions', { agent: 'qwen', prompt: PROMPT, cwd: 'proj' });
    expect(response.status).toBe(200);
    const body = await jsonBody<SessionBody>(response);
    expect(body).toMatchObject({ success: true, result: 'Done: hello.txt says Hello, Cairn!' });
    expect(
      body.messages.filter((message) => message.role === 'tool').map((message) => message.toolName),
    ).toEqual(['write_file', 'edit', 'run_shell_command', 'read_file']);
    expect((await readRuns(argvFile)).map((run) => run.args)).toEqual([
      [`--prompt=${PROMPT}`, '--output-format', 'stream-json', '--approval-mode=default'],
    ]);
  });

  it('refuses an agent it does not know, naming the ones it does', async () => {
    const root = await realpath(await tempDir());
    const store = createMemoryConversationStore();
    server = await serveApp({
      store,
      runtime: createAgentRuntime({
        store,
        model: new ScriptedModel({ turns: [] }),
        settings: { compression: false },
      }),
      events: createInProcessEventBus(),
      turnLock: createInProcessTurnLock(),
      agentSessions: { workspaceRoot: root },
    });
    const response = await server.post('/v1/agent-sessions', { agent: 'aider', prompt: 'Hi' });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toMatch(/claude.*gemini.*codex.*qwen/);
  });
});
