// A user on Node >= 22.13 who installs no native module: the packed package, installed by npm with
// `--omit=optional` (so without better-sqlite3), runs the README example on node:sqlite.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { scaledTimeout } from '@cairn/vitest-config/load';
import { readReadmeExample } from '@cairn/vitest-config/readme-example';
import { userShellEnv } from '@cairn/vitest-config/user-shell-env';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
// As a user's shell has it: pnpm's NODE_PATH would let the project resolve the workspace's better-sqlite3.
const env = userShellEnv();
const root = fileURLToPath(new URL('../../../', import.meta.url));
const available = process.getBuiltinModule('node:sqlite') !== undefined;
const title = available
  ? 'installed without better-sqlite3'
  : `installed without better-sqlite3 (skipped: Node ${process.version} has no node:sqlite, it needs >= 22.13)`;

describe.skipIf(!available)(title, () => {
  let dir: string;
  let project: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cairn-store-sqlite-install-'));
    project = join(dir, 'project');
    const { packageManager } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
      packageManager: string;
    };
    // The package and the @cairn packages it depends on, packed as they are published.
    const tarballs: string[] = [];
    for (const name of ['core', 'storage', 'store-sqlite']) {
      const { stdout } = await run('npx', ['-y', packageManager, 'pack', '--pack-destination', dir], {
        cwd: join(root, 'packages', name),
      });
      tarballs.push(stdout.trim().split('\n').at(-1) as string);
    }
    await mkdir(project);
    await writeFile(join(project, 'package.json'), '{ "name": "app", "private": true, "type": "module" }\n');
    await run('npm', ['install', '--omit=optional', '--no-audit', '--no-fund', ...tarballs], {
      cwd: project,
      env,
      timeout: scaledTimeout(200_000),
      killSignal: 'SIGKILL',
    });
  }, scaledTimeout(300_000));

  afterAll(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it(
    'has no better-sqlite3 and runs the README example on node:sqlite',
    async () => {
      await expect(
        readFile(join(project, 'node_modules', 'better-sqlite3', 'package.json')),
      ).rejects.toThrow();
      const { code, printed } = await readReadmeExample(new URL('../README.md', import.meta.url));
      const driver = `import { createSqliteConversationStore } from '@cairn/store-sqlite';
      console.log(createSqliteConversationStore({ filename: ':memory:' }).driver);`;
      const options = { cwd: project, env };
      expect((await run(process.execPath, ['--input-type=module', '-e', driver], options)).stdout).toBe(
        'node:sqlite\n',
      );
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', code], options);
      expect(stdout).toBe(printed);
    },
    scaledTimeout(60_000),
  );
});
