import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// The packaging checks of `pnpm check:packages` (tooling/scripts/check-package-contents.mjs) that
// make a package installable everywhere, on throwaway packages. A variable specifier: the script
// is plain JavaScript without declarations.
const SCRIPT = new URL('../scripts/check-package-contents.mjs', import.meta.url).href;
const { checkExports, findBrokenSourceMaps, findTopLevelAwait } = (await import(SCRIPT)) as {
  checkExports(manifest: unknown): string[];
  findBrokenSourceMaps(unpackedDir: string): string[];
  findTopLevelAwait(unpackedDir: string, manifest: unknown): string[];
};

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function unpacked(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-check-contents-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const entry = (base: string) => ({
  types: `./dist/${base}.d.ts`,
  import: `./dist/${base}.js`,
  default: `./dist/${base}.js`,
});

describe('checkExports', () => {
  const good = {
    main: './dist/index.js',
    types: './dist/index.d.ts',
    exports: {
      '.': entry('index'),
      './tools': entry('tools/index'),
      './schema.json': './dist/schema.json',
      './package.json': './package.json',
    },
  };

  it('accepts types, import and default on every code entry, with main and types', () => {
    expect(checkExports(good)).toEqual([]);
  });

  it('names an entry without default (CommonJS would get ERR_PACKAGE_PATH_NOT_EXPORTED)', () => {
    const { default: _, ...importOnly } = entry('tools/index');
    expect(checkExports({ ...good, exports: { ...good.exports, './tools': importOnly } })).toEqual([
      'exports["./tools"] has conditions ["types","import"], not ["types","import","default"] in that order',
    ]);
  });

  it('wants types first, a default that is the import, a code entry as an object, main and types', () => {
    const { types, ...rest } = entry('index');
    expect(
      checkExports({
        exports: {
          '.': { ...rest, types },
          './a': { ...entry('a'), default: './dist/a.cjs' },
          './b': './dist/b.js',
        },
      }),
    ).toEqual([
      'exports["."] has conditions ["import","default","types"], not ["types","import","default"] in that order',
      'exports["./a"]: "default" is not the same file as "import"',
      'exports["./b"] is a bare path; give it { types, import, default }',
      'types is not exports["."].types (./dist/index.d.ts)',
      'main is not exports["."].default (./dist/index.js)',
    ]);
  });
});

describe('findBrokenSourceMaps', () => {
  const map = (source: string) => JSON.stringify({ version: 3, sources: [source], mappings: '' });

  it('accepts maps whose sources the tarball ships', () => {
    const dir = unpacked({
      'dist/a.js.map': map('../src/a.ts'),
      'dist/a.d.ts.map': map('../src/a.ts'),
      'src/a.ts': 'export const a = 1;\n',
    });
    expect(findBrokenSourceMaps(dir)).toEqual([]);
  });

  it('counts the maps pointing at a missing file', () => {
    const dir = unpacked({
      'dist/a.js.map': map('../src/a.ts'),
      'dist/b/b.d.ts.map': map('../../src/b/b.ts'),
    });
    expect(findBrokenSourceMaps(dir)).toEqual([
      '2 source maps point at files the tarball does not ship (dist/a.js.map → src/a.ts, dist/b/b.d.ts.map → src/b/b.ts)',
    ]);
  });
});

describe('findTopLevelAwait', () => {
  const manifest = {
    exports: { '.': entry('index'), './b': entry('b/index'), './package.json': './package.json' },
  };

  it('ignores await inside functions, methods and arrows, and modules no entry imports', () => {
    const dir = unpacked({
      'dist/index.js': "export * from './a.js';\n",
      'dist/a.js':
        'export async function f() { await 1; for await (const x of []) {} }\n' +
        'class A { async m() { await 2; } }\nexport const g = async () => await 3;\n',
      'dist/b/index.js': "export const b = () => import('../worker.js');\n",
      'dist/worker.js': 'await 1;\n',
      'bin/cli.js': 'await 1;\n',
    });
    expect(findTopLevelAwait(dir, manifest)).toEqual([]);
  });

  it('names the modules an entry imports with a top-level await or for await, nested in blocks too', () => {
    const dir = unpacked({
      'dist/index.js': "import { a } from './a.js';\nexport { a };\n",
      'dist/a.js': 'export const a = await import("node:fs");\n',
      'dist/b/index.js': "export * from './c.js';\n",
      'dist/b/c.js': 'if (true) { for await (const line of []) {} }\n',
    });
    expect(findTopLevelAwait(dir, manifest)).toEqual([
      'top-level await in dist/a.js, dist/b/c.js, which an export entry imports: require() of it would throw ERR_REQUIRE_ASYNC_MODULE',
    ]);
  });
});
