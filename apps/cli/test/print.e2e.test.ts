import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { AgentOutputSchema, readToolLedger } from '@cairn/core';
import { type MockProviderServer, startMockProviderServer } from '@cairn/testing';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chatRequests, ensureCliBuilt, mockEnv, runCairn, storedLog, tempDir } from './cli-process.js';

beforeAll(ensureCliBuilt, 120_000);

let server: MockProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const conversationOf = (stderr: string) => /conversation (\S+)/.exec(stderr)?.[1] as string;

describe('cairn -p against a real OpenAI-compatible server (the mock, through the official SDK)', () => {
  it('prints the answer, stores the turn, and continues it with --continue', async () => {
    server = await startMockProviderServer({
      provider: 'openai',
      turns: [{ text: 'Paris is the capital of France.' }, { text: 'About 2.1 million people.' }],
    });
    const dataDir = tempDir('print');
    const env = mockEnv(dataDir, server.baseURL);
    const first = await runCairn(['-p', 'What is the capital of France?'], { env });
    expect(first.stderr).toContain('OPENAI_BASE_URL');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Paris is the capital of France.');
    const id = conversationOf(first.stderr);
    expect(id).toMatch(/^chat-/);

    const second = await runCairn(['-p', 'How many people live there?', '--continue'], { env });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('About 2.1 million people.');
    expect(conversationOf(second.stderr)).toBe(id);
    // The second request carried the first exchange: history comes from the store, not from memory.
    const sent = JSON.stringify(chatRequests(server)[1]?.body);
    expect(sent).toContain('What is the capital of France?');
    expect(sent).toContain('Paris is the capital of France.');
    const log = await storedLog(dataDir, id);
    expect(log.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('--json prints AgentOutput events, one valid JSON object per line, and nothing else on stdout', async () => {
    server = await startMockProviderServer({
      provider: 'openai',
      turns: [{ text: 'Hello there, friend.', chunkSize: 4 }],
    });
    const dataDir = tempDir('json');
    const run = await runCairn(['-p', 'Hi', '--json'], { env: mockEnv(dataDir, server.baseURL) });
    expect(run.code).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => AgentOutputSchema.parse(JSON.parse(line)));
    const types = events.map((event) => event.type);
    expect(types.filter((type) => type === 'text_delta').length).toBeGreaterThan(1);
    expect(types).toContain('finish');
    expect(events.find((event) => event.type === 'text')).toMatchObject({ text: 'Hello there, friend.' });
  });

  it('fails with the error code, a non-zero exit, and the failure stored (nothing lost)', async () => {
    server = await startMockProviderServer({ provider: 'openai', turns: [{ fault: { status: 401 } }] });
    const dataDir = tempDir('auth');
    const run = await runCairn(['-p', 'Keep this question'], { env: mockEnv(dataDir, server.baseURL) });
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('[LLM_AUTH]');
    // stdout is the answer only: the failure is the one line on stderr.
    expect(run.stdout).toBe('');
    const log = await storedLog(dataDir, conversationOf(run.stderr));
    expect(log[0]).toMatchObject({ role: 'user', content: 'Keep this question' });
    expect(log[1]).toMatchObject({ role: 'assistant', partType: 'error', errorCode: 'LLM_AUTH' });
  });

  it('runs tools in the workspace: run_command waits for a decision when nobody can approve it, runs with --yes, is refused with --approval never', async () => {
    const command = { name: 'run_command', arguments: { command: 'echo ran > proof.txt' } };
    server = await startMockProviderServer({
      provider: 'openai',
      turns: [
        { toolCalls: [command] },
        { toolCalls: [command] },
        { text: 'Done.' },
        { toolCalls: [command] },
        { text: 'It was refused.' },
      ],
    });
    const dataDir = tempDir('tools');
    const workspace = tempDir('tools-ws');
    const env = mockEnv(dataDir, server.baseURL);
    const proof = join(workspace, 'proof.txt');
    const waiting = await runCairn(['-p', 'make proof', '--workspace', workspace], { env });
    expect(waiting.code).toBe(0);
    // Nothing ran and the model was not asked again: the request waits in the store, and stderr
    // says how to decide it.
    expect(existsSync(proof)).toBe(false);
    expect(chatRequests(server)).toHaveLength(1);
    const conversationId = conversationOf(waiting.stderr);
    const [entry] = readToolLedger(await storedLog(dataDir, conversationId)).approvals;
    expect(entry).toMatchObject({ request: { toolName: 'run_command', askedOf: 'local' } });
    expect(entry?.decision).toBeUndefined();
    expect(waiting.stderr).toContain('run_command waits for approval: {"command":"echo ran > proof.txt"}');
    expect(waiting.stderr).toContain(`approve: cairn approvals approve ${conversationId} ${entry?.id}`);
    expect(waiting.stdout).toContain('? run_command: echo ran > proof.txt — awaiting approval');

    const allowed = await runCairn(['-p', 'make proof', '--workspace', workspace, '--yes'], { env });
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toMatch(/✓.*echo ran > proof\.txt/);
    expect(readFileSync(proof, 'utf8')).toBe('ran\n');

    rmSync(proof);
    const never = ['-p', 'make proof', '--workspace', workspace, '--approval', 'never'];
    const refused = await runCairn(never, { env });
    expect(refused.code).toBe(0);
    expect(refused.stderr).toContain('refused run_command: echo ran > proof.txt (--approval never)');
    expect(JSON.stringify(chatRequests(server)[4]?.body)).toMatch(/did not approve running run_command/);
    expect(existsSync(proof)).toBe(false);
  });
  it('colours only a terminal (or FORCE_COLOR), never with NO_COLOR or --no-color', async () => {
    server = await startMockProviderServer({
      provider: 'openai',
      // A listing, then (once the request carries its result) an answer.
      turns: (request) =>
        JSON.stringify(request.body).includes('"role":"tool"')
          ? { text: 'done' }
          : { toolCalls: [{ name: 'list_dir', arguments: { path: '.' } }] },
    });
    const dataDir = tempDir('colour');
    const { NO_COLOR: _off, ...piped } = mockEnv(dataDir, server.baseURL);
    const ansi = new RegExp(`${String.fromCharCode(27)}\\[`);
    const plain = await runCairn(['-p', 'list'], { env: piped });
    expect(plain.stdout).toMatch(/Listed/);
    expect(plain.stdout + plain.stderr).not.toMatch(ansi);
    const forced = await runCairn(['-p', 'list'], { env: { ...piped, FORCE_COLOR: '1' } });
    expect(forced.stdout).toMatch(ansi);
    const refused = await runCairn(['-p', 'list', '--no-color'], { env: { ...piped, FORCE_COLOR: '1' } });
    expect(refused.stdout + refused.stderr).not.toMatch(ansi);
  });
});
