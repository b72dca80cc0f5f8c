// tooling/scripts/check-import-cycles.mjs (`pnpm check:cycles`, a CI step): it must find a cycle
// that only type imports close, and pass a tree without one, so the CI step can fail.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../scripts/check-import-cycles.mjs', import.meta.url));
const roots: string[] = [];

/** A workspace in a temp directory with `files` (path → content) in it. */
async function workspace(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'cairn-cycles-'));
  roots.push(root);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  return root;
}

function check(root: string): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, root], (error, stdout) => {
      resolve({ code: error === null ? 0 : (error.code as number), stdout });
    });
  });
}

afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
});

describe('check-import-cycles', () => {
  it('finds a cycle of three files that only type imports close, and exits 1', async () => {
    const root = await workspace({
      'packages/a/src/index.ts': "export * from './first.js';\n",
      'packages/a/src/first.ts':
        "import type { Second } from './second.js';\nexport type First = Second[];\n",
      'packages/a/src/second.ts': "export type Second = typeof import('./third.js').third;\n",
      'packages/a/src/third.ts':
        "import type { First } from './first.js';\nexport const third: First | undefined = undefined;\n",
      'packages/b/src/index.ts': 'export const b = 1;\n',
    });
    const { code, stdout } = await check(root);
    expect(code).toBe(1);
    expect(stdout).toContain('packages/a:\n  src/first.ts → src/second.ts → src/third.ts → src/first.ts\n');
    expect(stdout).not.toContain('packages/b');
    expect(stdout).toContain('1 import cycle in 5 files of 2 packages');
  });

  it('follows re-exports, directory indexes, .mjs and dynamic imports', async () => {
    const root = await workspace({
      'apps/x/src/main.mts': "export { util } from './lib/index.mjs';\n",
      'apps/x/src/lib/index.mts': "export const util = () => import('../main.mjs');\n",
      'tooling/y/src/a.ts': "export { b } from './nested';\n",
      'tooling/y/src/nested/index.ts': "import '../a.js';\nexport const b = 2;\n",
    });
    const { code, stdout } = await check(root);
    expect(code).toBe(1);
    expect(stdout).toContain('apps/x:\n  src/lib/index.mts → src/main.mts → src/lib/index.mts\n');
    expect(stdout).toContain('tooling/y:\n  src/a.ts → src/nested/index.ts → src/a.ts\n');
  });

  it('passes a tree without a cycle, tests and other packages included, and exits 0', async () => {
    const root = await workspace({
      'packages/a/src/index.ts': "export * from './first.js';\nexport type { Second } from './second.js';\n",
      'packages/a/src/first.ts':
        "import type { Second } from './second.js';\nexport type First = Second[];\n",
      'packages/a/src/second.ts': "import { b } from '@x/b';\nexport type Second = typeof b;\n",
      'packages/a/src/first.test.ts':
        "import type { First } from './index.js';\nexport const sample: First = [];\n",
      'packages/a/node_modules/dep/index.js': "import './index.js';\n",
      'packages/b/src/index.ts': "import type { First } from '../../a/src/first.js';\nexport const b = 1;\n",
    });
    const { code, stdout } = await check(root);
    expect(stdout).toBe('no import cycles in 5 files of 2 packages\n');
    expect(code).toBe(0);
  });
});
