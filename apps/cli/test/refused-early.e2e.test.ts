import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type MockProviderServer, startMockProviderServer } from '@cairn/testing';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CAIRN_BIN, cliEnv, ensureCliBuilt, mockEnv, runCairn, tempDir } from './cli-process.js';

beforeAll(ensureCliBuilt, 120_000);

let server: MockProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Exactly one line on stderr, `cairn: … [CODE] — fix`, and the exit code of its family. */
function expectOneErrorLine(run: { code: number | null; stderr: string }, exit: number, code: string) {
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^cairn: .+ \\[${code}\\] — .+$`));
  expect(run.code).toBe(exit);
  return lines[0] as string;
}

const isRoot = process.getuid?.() === 0;
// Root in a container without CAP_SYS_ADMIN can neither mount nor be stopped by permissions.
const canMountReadOnly =
  isRoot &&
  spawnSync('unshare', ['-m', 'sh', '-c', 'mount -t tmpfs -o ro tmpfs /mnt'], { timeout: 10_000 }).status ===
    0;
const spawnResult = (result: SpawnSyncReturns<string>) => ({ code: result.status, stderr: result.stderr });

describe('a data directory that cannot hold the store: one STORE_ line with a fix, exit 3', () => {
  it.each(['fs', 'sqlite'])('--store %s: the path is a file (EEXIST)', async (store) => {
    const dir = tempDir('dd-file');
    const file = join(dir, 'passwd');
    writeFileSync(file, 'root:x:0:0\n');
    const run = await runCairn(['--store', store, '--data-dir', file, '-p', 'hi'], { env: cliEnv(dir) });
    const line = expectOneErrorLine(run, 3, 'STORE_UNAVAILABLE');
    expect(line).toContain(`${file} is a file`);
    expect(line).toContain('--data-dir');
  });

  it('a file inside the path (ENOTDIR) is named', async () => {
    const dir = tempDir('dd-notdir');
    const file = join(dir, 'notes.txt');
    writeFileSync(file, '');
    const run = await runCairn(['--data-dir', join(file, 'cairn'), 'conversations', 'list'], {
      env: cliEnv(dir),
    });
    expect(expectOneErrorLine(run, 3, 'STORE_UNAVAILABLE')).toContain(`${file} is a file`);
  });

  it.skipIf(isRoot && !canMountReadOnly)(
    'a read-only data directory (a read-only mount, or a directory without write permission)',
    async () => {
      const dir = tempDir('dd-readonly');
      const target = join(dir, 'mounted');
      mkdirSync(target);
      const env = cliEnv(dir);
      if (!isRoot) chmodSync(target, 0o555);
      // As root, permissions do not stop a write: mount a read-only tmpfs in a private mount namespace.
      const run = isRoot
        ? spawnResult(
            spawnSync(
              'unshare',
              [
                '-m',
                'sh',
                '-c',
                'mount -t tmpfs -o ro tmpfs "$1" && exec "$2" "$3" --data-dir "$1" -p hi',
                'sh',
                target,
                process.execPath,
                CAIRN_BIN,
              ],
              { env, encoding: 'utf8', timeout: 60_000 },
            ),
          )
        : await runCairn(['--data-dir', target, '-p', 'hi'], { env });
      expect(expectOneErrorLine(run, 3, 'STORE_UNAVAILABLE')).toMatch(
        isRoot ? /read-only file system/ : /no permission to write/,
      );
    },
  );
});

describe('inputs are checked before a model is resolved or a store is opened', () => {
  const badIds: [string, string[]][] = [
    ['conversations show', ['conversations', 'show', '../x']],
    ['conversations export', ['conversations', 'export', 'a/b']],
    ['conversations delete', ['conversations', 'delete', '..']],
    ['chat --resume', ['-p', 'hi', '--resume', '../../etc']],
    ['runs show', ['runs', 'show', '../run']],
    ['runs continue', ['runs', 'continue', '.hidden', '-i', 'go']],
    ['agent --conversation', ['agent', 'claude', 'hi', '--conversation', 'x/../../y']],
  ];
  it.each(badIds)(
    '%s with an unsafe id: INVALID_ID, exit 2, no store file, no request',
    async (_name, args) => {
      server = await startMockProviderServer({ provider: 'openai', turns: [{ text: 'never sent' }] });
      for (const store of ['sqlite', 'fs']) {
        const home = tempDir('early');
        const dataDir = join(home, 'data');
        const run = await runCairn(['--store', store, ...args], {
          env: mockEnv(dataDir, server.baseURL),
          cwd: home,
        });
        expect(expectOneErrorLine(run, 2, 'INVALID_ID')).toMatch(/cairn (conversations|runs) list/);
        // Nothing was created: no data directory, no conversations.db, no store folder.
        expect(existsSync(dataDir) ? readdirSync(dataDir) : []).toEqual([]);
      }
      // The model was never resolved: the mock saw no reachability probe and no chat request.
      expect(server.requests).toEqual([]);
    },
  );

  it.each([
    ['a workspace that does not exist', ['--workspace', '/nonexistent/ws', '-p', 'hi'], /workspace/],
    ['an empty -p prompt', ['-p', '  '], /-p needs a prompt/],
    ['a prompt given twice', ['chat', '-p', 'hi', 'and', 'this'], /given twice/],
    ['words that name no command', ['hello', 'world'], /unknown command "hello".*cairn chat/],
    [
      'a mistyped command',
      ['conversatons', 'list'],
      /unknown command "conversatons".*did you mean conversations\?/,
    ],
  ])('%s: INVALID_ARGUMENT, exit 2, nothing created, no request', async (_name, args, pattern) => {
    server = await startMockProviderServer({ provider: 'openai', turns: [{ text: 'never sent' }] });
    const home = tempDir('early-input');
    const dataDir = join(home, 'data');
    const run = await runCairn(args, { env: mockEnv(dataDir, server.baseURL), cwd: home });
    expect(expectOneErrorLine(run, 2, 'INVALID_ARGUMENT')).toMatch(pattern);
    expect(existsSync(dataDir)).toBe(false);
    expect(server.requests).toEqual([]);
  });

  it('workflow run --run-id with an unsafe id is refused before the file is even read', async () => {
    const dir = tempDir('early-run');
    const run = await runCairn(['workflow', 'run', 'missing.yaml', '--run-id', '../r'], { env: cliEnv(dir) });
    expectOneErrorLine(run, 2, 'INVALID_ID');
  });
});
