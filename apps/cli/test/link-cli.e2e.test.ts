import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runNodeScript } from '@cairn/testing';
import { beforeAll, expect, it } from 'vitest';
import { ensureCliBuilt, PACKAGE_DIR, tempDir } from './cli-process.js';

beforeAll(ensureCliBuilt, 120_000);

const LINK_SCRIPT = join(PACKAGE_DIR, '..', '..', 'tooling', 'scripts', 'link-cli.mjs');
const { version } = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
  version: string;
};

it('`pnpm link:cli` puts `cairn` on PATH, and `cairn --version` prints the package version', async () => {
  const bin = tempDir('link-bin');
  const env = { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: bin };
  const linked = await runNodeScript(LINK_SCRIPT, ['--dir', bin], { env });
  expect(linked.code, linked.stderr).toBe(0);
  expect(linked.stdout).toContain('try: cairn --help');
  // Found through PATH, as a user would type it.
  expect(execFileSync('cairn', ['--version'], { env, encoding: 'utf8' }).trim()).toBe(version);
  expect(version).not.toBe('0.0.0');
});

it('says how to fix a directory it cannot write', async () => {
  const file = join(tempDir('link-file'), 'not-a-dir');
  execFileSync('touch', [file]);
  const run = await runNodeScript(LINK_SCRIPT, ['--dir', join(file, 'bin')], {
    env: { PATH: process.env.PATH ?? '' },
  });
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/^link:cli: cannot write .* — pick a directory on your PATH/);
});
