import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { startMockProviderServer } from '@cairn/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { chatRequests, cliEnv, ensureCliBuilt, mockEnv, runCairn, tempDir } from './cli-process.js';

beforeAll(ensureCliBuilt, 120_000);

// A port nothing listens on: bound, then closed.
const closedPort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** Bad input: one line naming the problem and the fix, a non-zero exit, and the store untouched. */
const expectOneLineFailure = (
  run: { code: number | null; stderr: string },
  code: number,
  pattern: RegExp,
) => {
  expect(run.code).toBe(code);
  const lines = run.stderr
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('cairn:'));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(lines[0]).toContain(' — ');
};

describe('bad input', () => {
  it('an explicit provider without its key', async () => {
    const run = await runCairn(['-p', 'hi', '--provider', 'anthropic'], { env: cliEnv(tempDir('nokey')) });
    expectOneLineFailure(run, 4, /ANTHROPIC_API_KEY/);
  });

  it('an unreachable base URL', async () => {
    const port = await closedPort();
    const run = await runCairn(['-p', 'hi'], {
      env: cliEnv(tempDir('unreachable'), { OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` }),
    });
    expectOneLineFailure(
      run,
      4,
      new RegExp(`cannot reach http://127\\.0\\.0\\.1:${port}/v1.*\\[LLM_UNAVAILABLE\\]`),
    );
  });

  it('a bad config file', async () => {
    const dir = tempDir('config');
    writeFileSync(join(dir, 'cairn.config.json'), JSON.stringify({ store: 'mongo' }));
    const run = await runCairn(['conversations', 'list'], { env: cliEnv(dir), cwd: dir });
    expectOneLineFailure(run, 2, /cairn\.config\.json: store: .*\[INVALID_ARGUMENT\]/);
  });

  it('an unknown or unsafe conversation id, with the stored conversations left as they were', async () => {
    const server = await startMockProviderServer({ provider: 'openai', turns: [{ text: 'kept' }] });
    try {
      const dir = tempDir('ids');
      const env = mockEnv(dir, server.baseURL);
      expect((await runCairn(['-p', 'remember me'], { env })).code).toBe(0);
      const before = await runCairn(['conversations', 'list', '--json'], { env });
      for (const args of [
        ['conversations', 'show', 'chat-nope'],
        ['conversations', 'delete', 'chat-nope'],
        ['chat', '--resume', 'chat-nope', '-p', 'x'],
      ]) {
        expectOneLineFailure(
          await runCairn(args, { env }),
          3,
          /no conversation "chat-nope".*cairn conversations list/,
        );
      }
      const unsafe = await runCairn(['conversations', 'export', '../../etc/passwd'], { env });
      expect(unsafe.code).toBe(2);
      expect(unsafe.stderr).toContain('[INVALID_ID]');
      const after = await runCairn(['conversations', 'list', '--json'], { env });
      expect(after.stdout).toBe(before.stdout);
      expect(chatRequests(server)).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('a malformed transcript', async () => {
    const dir = tempDir('transcript');
    const file = join(dir, 'broken.jsonl');
    writeFileSync(file, 'this is not a transcript\nat all\n');
    const run = await runCairn(['convert', '--from', 'claude-code', file], { env: cliEnv(dir) });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^cairn: .*broken\.jsonl/m);
    expect(run.stdout).toBe('');
  });

  it('unknown options and commands are usage errors (exit 2) with a suggestion', async () => {
    const run = await runCairn(['conversations', 'lst'], { env: cliEnv(tempDir('usage')) });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Did you mean list?');
  });
});
