// The consumers check-packages.mjs installs the packages into besides its ESM projects: CommonJS
// (`require()` through Node's require(esm), plain and compiled by TypeScript `module: nodenext`)
// and TypeScript `moduleResolution: bundler`. The packages are ESM only; Node >= 20.19 loads them
// with require() because no module in their graphs uses top-level await (require() would throw
// ERR_REQUIRE_ASYNC_MODULE).
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { childEnv, run, tail } from './check-run.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Entry points that import vitest at load time: they only load inside a vitest run (the kits'
 * `describe…Conformance`), so consumers type-check them but do not load them.
 */
export const VITEST_ONLY_ENTRIES = new Set(['@cairn/storage/testkit', '@cairn/testing/conformance']);

/** The TypeScript and Node types a TypeScript consumer installs (the workspace's versions). */
export const TYPESCRIPT_PACKAGES = ['typescript@~5.9.3', '@types/node@^20.19.0'];

/** The module specifiers of a manifest's code entry points (`@cairn/x`, `@cairn/x/sub`). */
export function entryPoints(manifest) {
  return Object.entries(manifest.exports ?? {})
    .filter(([, target]) => typeof target === 'object' && target !== null)
    .map(([subpath]) => `${manifest.name}${subpath.slice(1)}`);
}

/**
 * A CommonJS script that require()s each entry point and prints how many loaded, each with at
 * least one export.
 */
export function requireScript(specifiers) {
  const loadable = specifiers.filter((specifier) => !VITEST_ONLY_ENTRIES.has(specifier));
  return `'use strict';
const specifiers = ${JSON.stringify(loadable)};
for (const specifier of specifiers) {
  const exported = Object.keys(require(specifier));
  if (exported.length === 0) throw new Error(\`require('\${specifier}') exports nothing\`);
}
console.log(\`required \${specifiers.length} entry points\`);
`;
}

/** Runs `requireScript` for `manifest`'s entry points in an installed project; returns problems. */
export async function checkRequire(project, manifest) {
  const specifiers = entryPoints(manifest);
  writeFileSync(join(project, 'require-entries.cjs'), requireScript(specifiers));
  const result = await run(process.execPath, ['require-entries.cjs'], {
    cwd: project,
    env: childEnv(),
    timeoutMs: 60_000,
  });
  if (result.code === 0) return [];
  const error = /Error \[[A-Z_]+\]:.*|^\w*Error:.*$/m.exec(result.stderr)?.[0] ?? tail(result.stderr, 3);
  return [`require() from CommonJS failed: ${error}`];
}

const COMPILER_OPTIONS = {
  strict: true,
  exactOptionalPropertyTypes: true,
  skipLibCheck: true,
  types: ['node'],
};

/**
 * A TypeScript consumer of every entry point: a namespace import of each (type-only for the
 * vitest-only ones) and a few real calls. Returns its source and what it prints.
 */
export function typescriptConsumer(specifiers) {
  const lines = [];
  const loaded = [];
  specifiers.forEach((specifier, index) => {
    if (VITEST_ONLY_ENTRIES.has(specifier)) lines.push(`import type * as entry${index} from '${specifier}';`);
    else {
      lines.push(`import * as entry${index} from '${specifier}';`);
      loaded.push(`entry${index}`);
    }
  });
  const typeOnly = specifiers
    .map((specifier, index) => (VITEST_ONLY_ENTRIES.has(specifier) ? `typeof entry${index}` : undefined))
    .filter(Boolean);
  const core = specifiers.indexOf('@cairn/core');
  const storeFs = specifiers.indexOf('@cairn/store-fs');
  const printed = [
    `loaded ${loaded.length} entry points, 0 empty\n`,
    core < 0 ? '' : '{"a":1}\n',
    storeFs < 0 ? '' : 'messages: 0\n',
  ].join('');
  const source = `${lines.join('\n')}
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type TypeOnly = [${typeOnly.join(', ')}];
const loaded = [${loaded.join(', ')}];
const empty = loaded.filter((entry) => Object.keys(entry).length === 0).length;
console.log(\`loaded \${loaded.length} entry points, \${empty} empty\`);
${core < 0 ? '' : `console.log(JSON.stringify(entry${core}.definedFields({ a: 1, b: undefined })));`}
${
  storeFs < 0
    ? ''
    : `async function main(): Promise<void> {
  const store = entry${storeFs}.createFsConversationStore({ rootDir: mkdtempSync(join(tmpdir(), 'cairn-cjs-')) });
  console.log('messages:', (await store.load('unknown-conversation')).length);
  await store.close();
}
main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});`
}
`;
  return { source, printed };
}

/**
 * Bundles the bundler consumer with esbuild (the workspace's copy, through vite; not installed for
 * this) for Node as an ES module, every @cairn package inlined and everything else left to
 * node_modules, and runs the bundle. Returns problems.
 */
async function checkBundle(project, externals, expected) {
  const vitest = createRequire(join(ROOT, 'tooling', 'vitest-config', 'package.json')).resolve(
    'vitest/package.json',
  );
  const vite = createRequire(vitest).resolve('vite/package.json');
  const esbuild = await import(pathToFileURL(createRequire(vite).resolve('esbuild')).href);
  try {
    await esbuild.build({
      entryPoints: [join(project, 'bundler', 'consumer.ts')],
      outfile: join(project, 'out-bundle', 'consumer.mjs'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      external: externals,
      logLevel: 'silent',
    });
  } catch (error) {
    return [`esbuild cannot bundle the entry points: ${error.message.split('\n').slice(0, 4).join(' | ')}`];
  }
  const ran = await run(process.execPath, [join('out-bundle', 'consumer.mjs')], {
    cwd: project,
    env: childEnv(),
    timeoutMs: 60_000,
  });
  if (ran.code !== 0 || ran.stdout !== expected) {
    return [`the esbuild bundle failed (exit ${ran.code}): ${tail(ran.stderr || ran.stdout, 3)}`];
  }
  return [];
}

/**
 * In `project` (a CommonJS project, `"type"` absent, with the packages of `manifests`, TypeScript
 * and @types/node installed): compiles a consumer of every entry point with `module: nodenext` to
 * CommonJS and runs it, type-checks the same imports with `moduleResolution: bundler`, and bundles
 * and runs them with esbuild. Returns problems.
 */
export async function checkTypescriptConsumers(project, manifests) {
  const problems = [];
  const specifiers = manifests.flatMap(entryPoints);
  const { source, printed: expected } = typescriptConsumer(specifiers);
  const tsc = join(project, 'node_modules', 'typescript', 'bin', 'tsc');

  mkdirSync(join(project, 'cjs'), { recursive: true });
  writeFileSync(join(project, 'cjs', 'consumer.ts'), source);
  writeFileSync(
    join(project, 'tsconfig.cjs.json'),
    JSON.stringify({
      compilerOptions: {
        ...COMPILER_OPTIONS,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        outDir: 'out-cjs',
        rootDir: 'cjs',
      },
      files: ['cjs/consumer.ts'],
    }),
  );
  const compiled = await run(process.execPath, [tsc, '-p', 'tsconfig.cjs.json'], {
    cwd: project,
    env: childEnv(),
    timeoutMs: 180_000,
  });
  if (compiled.code !== 0) {
    problems.push(`TypeScript module nodenext (CommonJS) does not compile: ${tail(compiled.stdout, 4)}`);
  } else {
    const ran = await run(process.execPath, ['out-cjs/consumer.js'], {
      cwd: project,
      env: childEnv(),
      timeoutMs: 60_000,
    });
    if (ran.code !== 0 || ran.stdout !== expected) {
      problems.push(
        `the CommonJS output of TypeScript module nodenext failed (exit ${ran.code}): ${tail(ran.stderr || ran.stdout, 3)}`,
      );
    }
  }

  mkdirSync(join(project, 'bundler'), { recursive: true });
  writeFileSync(join(project, 'bundler', 'consumer.ts'), source);
  writeFileSync(
    join(project, 'tsconfig.bundler.json'),
    JSON.stringify({
      compilerOptions: {
        ...COMPILER_OPTIONS,
        module: 'preserve',
        moduleResolution: 'bundler',
        target: 'es2022',
        noEmit: true,
      },
      files: ['bundler/consumer.ts'],
    }),
  );
  const bundler = await run(process.execPath, [tsc, '-p', 'tsconfig.bundler.json'], {
    cwd: project,
    env: childEnv(),
    timeoutMs: 180_000,
  });
  if (bundler.code !== 0) {
    problems.push(`TypeScript moduleResolution bundler does not type-check: ${tail(bundler.stdout, 4)}`);
  }
  const externals = new Set(
    manifests.flatMap((manifest) =>
      Object.keys({
        ...manifest.dependencies,
        ...manifest.peerDependencies,
        ...manifest.optionalDependencies,
      }).filter((name) => !name.startsWith('@cairn/')),
    ),
  );
  problems.push(...(await checkBundle(project, [...externals], expected)));
  return problems;
}
