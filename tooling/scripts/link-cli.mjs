// Puts the reference CLI on PATH: writes a `cairn` launcher into npm's global bin directory (or
// --dir), pointing at this checkout's build. A launcher rather than a symlink: every build
// rewrites dist/bin.js without its executable bit. It runs the `node` on PATH, as npm's own
// launchers do, so a Node upgrade does not break it.
//
// Usage: pnpm link:cli [--dir <bin-dir>]   (after `pnpm demo` or `pnpm build`)
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childEnv } from './check-run.mjs';

const BIN = fileURLToPath(new URL('../../apps/cli/dist/bin.js', import.meta.url));

function fail(problem, fix) {
  console.error(`link:cli: ${problem} — ${fix}`);
  process.exit(1);
}

function binDir(args) {
  const at = args.indexOf('--dir');
  if (at !== -1) {
    const dir = args[at + 1];
    if (dir === undefined) fail('--dir needs a directory', 'pnpm link:cli --dir ~/.local/bin');
    return resolve(dir);
  }
  // npm's global prefix: its bin directory is on PATH wherever npm's own global commands work.
  // (Without the npm_* variables `pnpm link:cli` sets: they point npm at this workspace.)
  const prefix = execFileSync('npm', ['prefix', '--global'], { encoding: 'utf8', env: childEnv() }).trim();
  return process.platform === 'win32' ? prefix : join(prefix, 'bin');
}

if (!existsSync(BIN))
  fail(`${BIN} is not built yet`, 'run `npx -y pnpm@10.34.9 demo` (or `pnpm build`) first');
const dir = binDir(process.argv.slice(2));
// Windows runs a .cmd from PATH; everywhere else a shell script.
const windows = process.platform === 'win32';
const launcher = join(dir, windows ? 'cairn.cmd' : 'cairn');
const script = windows
  ? `@node "${BIN}" %*\r\n`
  : `#!/bin/sh\nexec node '${BIN.replaceAll("'", `'\\''`)}' "$@"\n`;
try {
  mkdirSync(dir, { recursive: true });
  accessSync(dir, constants.W_OK);
  writeFileSync(launcher, script, { mode: 0o755 });
} catch (error) {
  fail(
    `cannot write ${launcher} (${error.code ?? error.message})`,
    'pick a directory on your PATH: pnpm link:cli --dir ~/.local/bin',
  );
}
const onPath = (process.env.PATH ?? '')
  .split(delimiter)
  .map((entry) => resolve(entry))
  .includes(dir);
console.log(`wrote ${launcher} → ${BIN}`);
console.log(
  onPath
    ? 'try: cairn --help'
    : `${dir} is not on your PATH: add it (export PATH="${dir}:$PATH"), then try cairn --help`,
);
