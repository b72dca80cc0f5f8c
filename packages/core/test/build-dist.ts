// vitest global setup: the dist tests exercise the built package, so build it when it is missing
// or older than its sources (e.g. `pnpm --filter @cairn/core test` right after install). Under
// turbo the build has already run and this is a no-op.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

function newestSourceMtime(dir: string): number {
  return Math.max(
    0,
    ...readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .map((file) => statSync(join(dir, file)).mtimeMs),
  );
}

export function setup(): void {
  const output = join(packageDir, 'dist', 'schemas', 'agent-output.json');
  const inputs = [
    join(packageDir, 'scripts', 'emit-json-schemas.mjs'),
    join(packageDir, 'tsconfig.build.json'),
  ];
  const newestInput = Math.max(
    newestSourceMtime(join(packageDir, 'src')),
    ...inputs.map((file) => statSync(file).mtimeMs),
  );
  if (existsSync(output) && statSync(output).mtimeMs >= newestInput) return;
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: packageDir, stdio: 'inherit' });
  execFileSync(process.execPath, ['scripts/emit-json-schemas.mjs'], { cwd: packageDir, stdio: 'inherit' });
}
