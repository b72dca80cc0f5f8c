import { spawn } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockProviderServer, unusedLoopbackPort } from '@cairn/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CAIRN_BIN,
  chatRequests,
  cliEnv,
  ensureCliBuilt,
  mockEnv,
  runCairn,
  tempDir,
} from './cli-process.js';

beforeAll(ensureCliBuilt, 120_000);

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
    const port = await unusedLoopbackPort();
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

describe('more bad input (review findings)', () => {
  it('an unknown command, a file export would overwrite or cannot write, and a closed output pipe', async () => {
    const dir = tempDir('more');
    const env = cliEnv(dir);
    const bogus = await runCairn(['bogus'], { env });
    expectOneLineFailure(bogus, 2, /unknown command "bogus"/);

    expect((await runCairn(['demo'], { env })).code).toBe(0);
    const id = /^(chat-\S+)/m.exec(
      (await runCairn(['conversations', 'list'], { env })).stdout,
    )?.[1] as string;
    const target = join(dir, 'keep.md');
    writeFileSync(target, 'my notes');
    expectOneLineFailure(
      await runCairn(['conversations', 'export', id, '-o', target], { env }),
      2,
      /cannot write .*keep\.md \(EEXIST\).*--force/,
    );
    expect(readFileSync(target, 'utf8')).toBe('my notes');
    expect(
      (await runCairn(['conversations', 'export', id, '-o', target, '--force', '--format', 'md'], { env }))
        .code,
    ).toBe(0);
    expect(readFileSync(target, 'utf8')).toContain('```diff');
    expectOneLineFailure(
      await runCairn(['conversations', 'export', id, '-o', join(dir, 'no', 'such', 'dir.md')], { env }),
      2,
      /ENOENT/,
    );

    // A reader that stops early is not an error: no stack trace, no EPIPE.
    const piped = await new Promise<{ stderr: string; status: number | null }>((resolve) => {
      const child = spawn(
        'bash',
        [
          '-c',
          `"${process.execPath}" "${CAIRN_BIN}" conversations export ${id} | head -c 10 >/dev/null; exit \${PIPESTATUS[0]}`,
        ],
        { env },
      );
      let stderr = '';
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      child.on('close', (status) => resolve({ stderr, status }));
    });
    expect(piped.stderr).not.toContain('EPIPE');
    expect(piped.status).toBe(0);
  });

  it('reading runs needs no model: runs list works with a provider that has no key', async () => {
    const run = await runCairn(['runs', 'list', '--provider', 'anthropic'], { env: cliEnv(tempDir('runs')) });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('no runs yet');
  });

  it('a base URL carrying credentials is refused without echoing them', async () => {
    const run = await runCairn(['-p', 'hi'], {
      env: cliEnv(tempDir('creds'), { OPENAI_BASE_URL: 'http://admin:hunter2@127.0.0.1:1/v1' }),
    });
    expectOneLineFailure(run, 2, /user name or password/);
    expect(run.stderr).not.toContain('hunter2');
  });
  it('a damaged log line is set aside (never deleted), the user told in one line, the rest shown', async () => {
    const dir = tempDir('corrupt');
    const env = cliEnv(dir);
    expect((await runCairn(['demo'], { env })).code).toBe(0);
    const id = /^(chat-\S+)/m.exec(
      (await runCairn(['conversations', 'list'], { env })).stdout,
    )?.[1] as string;
    const log = readdirSync(join(dir, 'store'), { recursive: true, encoding: 'utf8' }).find(
      (file) => file.includes(id) && file.endsWith('.jsonl'),
    ) as string;
    appendFileSync(join(dir, 'store', log), '{"torn": tr\n');
    const shown = await runCairn(['conversations', 'show', id], { env });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('Updated src/greet.js');
    expect(shown.stderr).toMatch(
      /^cairn: \d+ damaged bytes of conversation chat-\S+ were set aside in (\S+)/m,
    );
    const aside = /set aside in (\S+)/.exec(shown.stderr)?.[1] as string;
    expect(readFileSync(aside, 'utf8')).toContain('{"torn": tr');
  });
});
