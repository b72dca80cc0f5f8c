// vitest globalSetup for packages whose tests run their own built output (child processes, the
// published entry points): builds the package with its `build` script when dist is missing or
// older than the sources, e.g. `pnpm --filter <pkg> test` right after install. Under turbo the
// build has already run and this is a no-op.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOURCE_DIRS = ['src', 'scripts'];
const SOURCE_FILES = ['package.json', 'tsconfig.build.json'];

function newestMtime(dir, accept) {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!accept(file)) continue;
    const stat = statSync(join(dir, file));
    if (stat.isFile()) newest = Math.max(newest, stat.mtimeMs);
  }
  return newest;
}

/** Builds the package in `packageDir` (default: the working directory) if its dist is stale. */
export function ensurePackageBuilt(packageDir = process.cwd()) {
  const isSource = (file) => !/\.test\.[cm]?[jt]s$/.test(file);
  const newestSource = Math.max(
    ...SOURCE_DIRS.map((dir) => newestMtime(join(packageDir, dir), isSource)),
    ...SOURCE_FILES.filter((file) => existsSync(join(packageDir, file))).map(
      (file) => statSync(join(packageDir, file)).mtimeMs,
    ),
  );
  const newestOutput = newestMtime(join(packageDir, 'dist'), () => true);
  if (newestOutput >= newestSource) return;
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  execFileSync(npm, ['run', '--silent', 'build'], { cwd: packageDir, stdio: 'inherit' });
}

export function setup() {
  ensurePackageBuilt();
}
