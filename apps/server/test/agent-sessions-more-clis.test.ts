import { mkdir, readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConversationMessage } from '@cairn/core';
import { recordedFixtureCwd } from '@cairn/testing/agent-clis';
import { afterEach, describe, expect, it } from 'vitest';
import { installFakeAgent, readRuns, tempDir } from './support/agent-fake-cli.js';
import { inProcessAppParts } from './support/in-process-app-parts.js';
import { jsonBody } from './support/json-body.js';
import { type AppServer, serveApp } from './support/serve-app.js';

// Real Codex CLI and Qwen Code runs (packages/agent-cli/fixtures/real), replayed by the fake agent.
const REAL_FIXTURES = new URL('../../../packages/agent-cli/fixtures/real/', import.meta.url);
const RECORDED_CWD = recordedFixtureCwd(REAL_FIXTURES);
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

// Each CLI's session id field, tools of the main run, and the arguments of a run and of its resume
// with the server's default read-only permissions (Codex: its sandbox mode; Qwen Code: approval mode).
const cases = [
  {
    name: 'Codex CLI',
    agent: 'codex',
    cli: 'codex',
    sessionField: 'thread_id',
    tools: ['file_change', 'file_change', 'command_execution', 'command_execution'],
    args: (id: string) => [
      ['exec', '--json', ...READ_ONLY_CODEX, '--', PROMPT],
      ['exec', 'resume', id, '--json', ...READ_ONLY_CODEX, '--', 'And now?'],
    ],
  },
  {
    name: 'Qwen Code',
    agent: 'qwen',
    cli: 'qwen-code',
    sessionField: 'session_id',
    tools: ['write_file', 'edit', 'run_shell_command', 'read_file'],
    args: (id: string) =>
      [`--prompt=${PROMPT}`, '--prompt=And now?'].map((prompt, run) => [
        prompt,
        ...['--output-format', 'stream-json', ...(run === 0 ? [] : [`--resume=${id}`])],
        '--approval-mode=default',
      ]),
  },
];

describe('POST /v1/agent-sessions with agent codex or qwen', () => {
  it.each(cases)('runs $name (agent $agent): stores its work, resumes its session', async (cliCase) => {
    const { agent, cli, sessionField, tools, args } = cliCase;
    const root = await realpath(await tempDir());
    await mkdir(join(root, 'proj'));
    const bin = await tempDir();
    const argvFile = join(bin, 'runs.jsonl');
    const fixture = fileURLToPath(new URL(`${cli}/main.jsonl`, REAL_FIXTURES));
    const command = await installFakeAgent(bin, agent, {
      transcript: { file: fixture, recordedCwd: RECORDED_CWD },
      argvFile,
    });
    const agentSessions = { workspaceRoot: root, commands: { [agent]: command } };
    server = await serveApp({ ...inProcessAppParts(), agentSessions });
    const sessionId = JSON.parse((await readFile(fixture, 'utf8')).split('\n')[0] ?? '')[sessionField];

    const first = await server.post('/v1/agent-sessions', { agent, prompt: PROMPT, cwd: 'proj' });
    expect(first.status).toBe(200);
    const body = await jsonBody<SessionBody>(first);
    expect(body).toMatchObject({ sessionId, success: true, result: 'Done: hello.txt says Hello, Cairn!' });
    expect(
      body.messages.filter((message) => message.role === 'tool').map((message) => message.toolName),
    ).toEqual(tools);

    const again = await server.post('/v1/agent-sessions', {
      agent,
      prompt: 'And now?',
      cwd: 'proj',
      conversationId: body.conversationId,
    });
    expect(again.status).toBe(200);
    expect((await readRuns(argvFile)).map((run) => run.args)).toEqual(args(sessionId));
  });

  it('refuses an agent it does not know, naming the ones it does', async () => {
    const root = await realpath(await tempDir());
    server = await serveApp({ ...inProcessAppParts(), agentSessions: { workspaceRoot: root } });
    const response = await server.post('/v1/agent-sessions', { agent: 'aider', prompt: 'Hi' });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toMatch(/claude.*gemini.*codex.*qwen/);
  });
});
