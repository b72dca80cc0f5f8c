// Static checks of one packed package, used by check-packages.mjs: what the tarball ships, the
// publishing metadata, the bare imports of its code, and the README example.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import semver from 'semver';
import ts from 'typescript';

export const REPOSITORY_URL = 'git+https://github.com/cairn-dev/cairn.git';
export const HOMEPAGE_BASE = 'https://github.com/cairn-dev/cairn/tree/main/packages';
export const BUGS_URL = 'https://github.com/cairn-dev/cairn/issues';
export const NODE_ENGINE = '>=20.19';

/** Files a tarball must never ship, each with the reason. Paths are relative to the package root. */
const FORBIDDEN = [
  [/(^|\/)[^/]*\.test\.[^/]*$/, 'a test file'],
  [/^src\/.*(?<!\.ts)$/, 'a source directory file that is not TypeScript'],
  [/(^|\/)test-support\.ts$/, 'a test helper (test-support.ts)'],
  [/^test\//, 'the test directory'],
  [/^bench\//, 'the benchmark directory'],
  [/(^|\/)__fixtures__\//, 'test fixtures (__fixtures__)'],
  [/(^|\/)\.test-results(\/|$)/, 'test results (.test-results)'],
  [/(^|\/)tsconfig[^/]*$/, 'a tsconfig file'],
  [/(^|\/)vitest\.config[^/]*$/, 'a vitest config'],
  [/(^|\/)\.turbo(\/|$)/, 'the turbo cache (.turbo)'],
  [/(^|\/)turbo\.json$/, 'turbo.json'],
  [/(^|\/)node_modules\//, 'node_modules'],
  [/\.tsbuildinfo$/, 'a tsbuildinfo file'],
];

/** Files a package may ship besides what `bin` names. */
const ALLOWED = [
  /^dist\//,
  /^src\/.*\.ts$/,
  /^README\.md$/,
  /^LICENSE$/,
  /^package\.json$/,
  /^CHANGELOG\.md$/,
];

const REQUIRED = ['package.json', 'README.md', 'LICENSE'];

/**
 * Problems with the list of files in a tarball (`paths` as `tar -tzf` prints them, `package/...`).
 * `manifest` is the packed package.json.
 */
export function checkTarballFiles(paths, manifest) {
  const files = paths.filter((path) => !path.endsWith('/')).map((path) => path.replace(/^package\//, ''));
  const bins = new Set(
    Object.values(
      typeof manifest.bin === 'string' ? { [manifest.name]: manifest.bin } : (manifest.bin ?? {}),
    ).map((path) => path.replace(/^\.\//, '')),
  );
  const problems = [];
  for (const file of files) {
    const forbidden = FORBIDDEN.find(([pattern]) => pattern.test(file));
    if (forbidden) problems.push(`ships ${file} (${forbidden[1]})`);
    else if (!bins.has(file) && !ALLOWED.some((pattern) => pattern.test(file)))
      problems.push(
        `ships ${file}, which is neither dist/, src/**/*.ts, a bin, README.md, LICENSE nor package.json`,
      );
  }
  for (const file of REQUIRED) if (!files.includes(file)) problems.push(`the tarball has no ${file}`);
  for (const bin of bins) if (!files.includes(bin)) problems.push(`bin ${bin} is not in the tarball`);
  return problems;
}

/**
 * Build output in the tarball that the package's tsconfig.build.json does not produce (left in dist
 * by an earlier build: a renamed, deleted or newly excluded source file), and sources in src/ it
 * does not compile (test helpers `files` forgot to leave out). Only compiled outputs (.js, .d.ts and
 * their maps) are checked; other generated files (core's JSON Schemas) are not.
 */
export function findStaleOutputs(paths, packageDir) {
  const configPath = join(packageDir, 'tsconfig.build.json');
  if (!existsSync(configPath)) return [];
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic() {} },
  );
  if (!config) return [`cannot read ${relative(process.cwd(), configPath)}`];
  const rootDir = config.options.rootDir ?? join(packageDir, 'src');
  const outDir = config.options.outDir ?? join(packageDir, 'dist');
  const expected = new Set();
  const compiled = new Set(config.fileNames.map((source) => relative(packageDir, source)));
  for (const source of config.fileNames) {
    if (source.endsWith('.d.ts')) continue;
    const base = relative(packageDir, join(outDir, relative(rootDir, source))).replace(/\.[cm]?tsx?$/, '');
    for (const ext of ['.js', '.js.map', '.d.ts', '.d.ts.map']) expected.add(`${base}${ext}`);
  }
  const files = paths.map((path) => path.replace(/^package\//, ''));
  const stale = files.filter((file) => /^dist\/.*\.(js|d\.ts)(\.map)?$/.test(file) && !expected.has(file));
  const uncompiled = files.filter((file) => /^src\/.*\.ts$/.test(file) && !compiled.has(file));
  const problems = [];
  if (stale.length > 0) {
    problems.push(
      `ships ${stale.length} stale build outputs that tsconfig.build.json no longer produces (${stale.join(', ')}): delete dist and rebuild`,
    );
  }
  if (uncompiled.length > 0) {
    problems.push(
      `ships ${uncompiled.length} sources that tsconfig.build.json does not compile (${uncompiled.join(', ')}): leave them out in "files"`,
    );
  }
  return problems;
}

/**
 * Source maps (dist/**\/*.map) whose `sources` name a file the tarball does not ship: a debugger or
 * go-to-definition would open nothing. The packages ship src/ for them (see the root README).
 */
export function findBrokenSourceMaps(unpackedDir) {
  const broken = [];
  for (const file of walk(unpackedDir)) {
    if (!file.endsWith('.map')) continue;
    let map;
    try {
      map = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      broken.push(`${relative(unpackedDir, file)} (not JSON)`);
      continue;
    }
    for (const source of map.sources ?? []) {
      const target = resolve(dirname(file), map.sourceRoot ?? '', source);
      if (!existsSync(target))
        broken.push(`${relative(unpackedDir, file)} → ${relative(unpackedDir, target)}`);
    }
  }
  if (broken.length === 0) return [];
  broken.sort();
  const shown = broken.slice(0, 3).join(', ');
  return [
    `${broken.length} source maps point at files the tarball does not ship (${shown}${broken.length > 3 ? ', …' : ''})`,
  ];
}

/**
 * Modules with a top-level `await` (or `for await`) in the graph of the package's export entries
 * (relative static imports and re-exports): Node's require(esm) throws ERR_REQUIRE_ASYNC_MODULE
 * for such a graph, so CommonJS consumers could not load the entry. Static, so it covers the
 * entries that only load under vitest too. Scripts run as processes (bins, workers) may use it.
 */
export function findTopLevelAwait(unpackedDir, manifest) {
  const queue = Object.values(manifest.exports ?? {})
    .map((target) => (typeof target === 'object' && target !== null ? target.default : undefined))
    .filter((target) => typeof target === 'string' && /\.m?js$/.test(target))
    .map((target) => resolve(unpackedDir, target));
  const seen = new Set();
  const found = [];
  while (queue.length > 0) {
    const file = queue.shift();
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    const visit = (node) => {
      if (ts.isFunctionLike(node) || ts.isClassLike(node)) return false;
      if (ts.isAwaitExpression(node) || (ts.isForOfStatement(node) && node.awaitModifier)) return true;
      return ts.forEachChild(node, visit) ?? false;
    };
    if (source.statements.some(visit)) found.push(relative(unpackedDir, file));
    for (const statement of source.statements) {
      const specifier =
        (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier;
      if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith('.')) {
        queue.push(resolve(dirname(file), specifier.text));
      }
    }
  }
  if (found.length === 0) return [];
  return [
    `top-level await in ${found.sort().join(', ')}, which an export entry imports: require() of it would throw ERR_REQUIRE_ASYNC_MODULE`,
  ];
}

/** The conditions, in order, of every subpath export that is code (not a .json file). */
export const EXPORT_CONDITIONS = ['types', 'import', 'default'];

/**
 * The exports map works for every consumer: ESM (`import`), CommonJS through Node's require(esm)
 * and bundlers (`default`), TypeScript (`types`, first). Top-level `main`/`types` name the root
 * entry for tools that do not read `exports`.
 */
export function checkExports(manifest) {
  const problems = [];
  const exportsMap = manifest.exports;
  if (typeof exportsMap !== 'object' || exportsMap === null || !exportsMap['.']) {
    return ['exports has no "." entry'];
  }
  for (const [subpath, target] of Object.entries(exportsMap)) {
    if (typeof target === 'string') {
      if (!/\.json$/.test(target)) {
        problems.push(`exports["${subpath}"] is a bare path; give it { ${EXPORT_CONDITIONS.join(', ')} }`);
      }
      continue;
    }
    const conditions = Object.keys(target ?? {});
    if (conditions.join() !== EXPORT_CONDITIONS.join()) {
      problems.push(
        `exports["${subpath}"] has conditions ${JSON.stringify(conditions)}, not ${JSON.stringify(EXPORT_CONDITIONS)} in that order`,
      );
    } else if (target.import !== target.default) {
      problems.push(`exports["${subpath}"]: "default" is not the same file as "import"`);
    }
  }
  const root = exportsMap['.'];
  if (typeof root === 'object') {
    if (manifest.types !== root.types) problems.push(`types is not exports["."].types (${root.types})`);
    if (manifest.main !== root.default) problems.push(`main is not exports["."].default (${root.default})`);
  }
  return problems;
}

/** Publishing metadata every public package carries. */
export function checkMetadata(manifest, dirName) {
  const problems = [];
  const expect = (ok, message) => {
    if (!ok) problems.push(message);
  };
  expect(manifest.license === 'MIT', `license is ${JSON.stringify(manifest.license)}, not "MIT"`);
  expect(
    manifest.repository?.type === 'git' &&
      manifest.repository?.url === REPOSITORY_URL &&
      manifest.repository?.directory === `packages/${dirName}`,
    `repository is not { type: "git", url: "${REPOSITORY_URL}", directory: "packages/${dirName}" }`,
  );
  expect(
    manifest.homepage === `${HOMEPAGE_BASE}/${dirName}#readme`,
    `homepage is not ${HOMEPAGE_BASE}/${dirName}#readme`,
  );
  expect(manifest.bugs?.url === BUGS_URL, `bugs.url is not ${BUGS_URL}`);
  expect(manifest.publishConfig?.access === 'public', 'publishConfig.access is not "public"');
  expect(manifest.engines?.node === NODE_ENGINE, `engines.node is not "${NODE_ENGINE}"`);
  expect(Array.isArray(manifest.keywords) && manifest.keywords.length > 0, 'no keywords');
  expect(typeof manifest.description === 'string' && manifest.description.length > 0, 'no description');
  expect(manifest.type === 'module', 'type is not "module"');
  expect(
    !JSON.stringify(manifest).includes('workspace:'),
    'the packed package.json still has workspace: ranges',
  );
  return problems;
}

/** The package name a bare specifier refers to (`@scope/name/sub` → `@scope/name`), or undefined if not bare. */
export function packageNameOf(specifier) {
  if (/^(\.|\/|[a-z]+:)/i.test(specifier) || isBuiltin(specifier)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const IMPORT_PATTERNS = [
  // import x from 'y'; import { a } from 'y'; export * from 'y'; export { a } from 'y'
  /(?:^|[\s;}])(?:import|export)\s[^'"`;]*?\sfrom\s*(['"])([^'"\n]+)\1/g,
  // import 'y'
  /(?:^|[\s;])import\s*(['"])([^'"\n]+)\1/g,
  // import('y')
  /\bimport\s*\(\s*(['"])([^'"\n]+)\1\s*\)/g,
  // require('y'), require.resolve('y') (through createRequire)
  /\brequire(?:\.resolve)?\s*\(\s*(['"])([^'"\n]+)\1\s*\)/g,
];

/** The module specifiers a module's static imports, re-exports, literal dynamic imports and requires name. */
export function importSpecifiers(source) {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const found = new Set();
  for (const pattern of IMPORT_PATTERNS) for (const match of code.matchAll(pattern)) found.add(match[2]);
  return [...found];
}

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}

/** Bare imports in the unpacked package's JavaScript that resolve to a package it does not declare. */
export function findUndeclaredImports(unpackedDir, manifest) {
  const declared = new Set([
    manifest.name,
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
    ...Object.keys(manifest.optionalDependencies ?? {}),
  ]);
  const undeclared = new Map();
  for (const file of walk(unpackedDir)) {
    if (!/\.[cm]?js$/.test(file)) continue;
    for (const specifier of importSpecifiers(readFileSync(file, 'utf8'))) {
      const name = packageNameOf(specifier);
      if (name === undefined || declared.has(name)) continue;
      if (!undeclared.has(name)) undeclared.set(name, relative(unpackedDir, file));
    }
  }
  return [...undeclared].map(
    ([name, file]) => `${file} imports ${name}, which package.json does not declare`,
  );
}

/**
 * The README's example: the first ```js block and the ```text block after "It prints:" — the same
 * convention as @cairn/vitest-config/readme-example (runReadmeExample), which package tests use.
 */
export function readmeExample(readme) {
  const code = /```js\n([\s\S]*?)```/.exec(readme)?.[1];
  const printed = /It prints:\n\n```text\n([\s\S]*?)```/.exec(readme)?.[1];
  return { code, printed };
}

/**
 * Bare imports of the installed package's declaration files (dist/**\/*.d.ts) that a TypeScript
 * consumer cannot resolve to declarations (NodeNext resolution from inside node_modules): a type
 * the package's API exposes comes from an @types package it does not depend on, so a consumer
 * sees `any` or error TS7016. `node:` built-ins are left to the consumer's @types/node.
 */
export function findUntypedImports(installedDir) {
  const options = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext };
  const untyped = new Map();
  for (const file of walk(join(installedDir, 'dist'))) {
    if (!/\.d\.[cm]?ts$/.test(file)) continue;
    const source = readFileSync(file, 'utf8');
    const referenced = [...source.matchAll(/\/\/\/\s*<reference\s+types="([^"]+)"/g)].map(
      (match) => match[1],
    );
    for (const specifier of [...importSpecifiers(source), ...referenced]) {
      const name = packageNameOf(specifier);
      if (name === undefined || untyped.has(specifier)) continue;
      const { resolvedModule } = ts.resolveModuleName(
        specifier,
        file,
        options,
        ts.sys,
        undefined,
        undefined,
        ts.ModuleKind.ESNext,
      );
      if (!resolvedModule || !/\.d\.[cm]?ts$/.test(resolvedModule.resolvedFileName)) {
        untyped.set(specifier, relative(installedDir, file));
      }
    }
  }
  return [...untyped].map(
    ([specifier, file]) =>
      `${file} uses types from ${specifier}, which resolve to no declarations once installed`,
  );
}

/**
 * Installed packages of `name`'s runtime dependency tree (`dependencies`, transitively; peers are
 * the user's choice) whose `engines.node` excludes the Node floor we promise. The workspace installs
 * without engine-strict, so that tests can use tools that need a newer Node (the current AI SDK);
 * this keeps such a dependency out of what a user on Node 20.19 installs.
 */
export function findNodeFloorViolations(projectDir, name) {
  const floor = semver.minVersion(NODE_ENGINE);
  const problems = [];
  const seen = new Set();
  const visit = (packageDir, path) => {
    if (seen.has(packageDir)) return;
    seen.add(packageDir);
    const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
    const range = manifest.engines?.node;
    if (typeof range === 'string' && semver.validRange(range) && !semver.satisfies(floor, range)) {
      problems.push(`${path.join(' > ')} needs Node ${range}, outside our engines (${NODE_ENGINE})`);
    }
    for (const dependency of Object.keys(manifest.dependencies ?? {})) {
      const found = installedPackageDir(packageDir, dependency, projectDir);
      if (found !== undefined) visit(found, [...path, dependency]);
    }
  };
  visit(join(projectDir, 'node_modules', ...name.split('/')), [name]);
  return problems;
}

// Node's lookup: the nearest node_modules from the dependant up to the project.
function installedPackageDir(fromDir, name, projectDir) {
  for (let dir = fromDir; dir.startsWith(projectDir); dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', ...name.split('/'));
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === projectDir) break;
  }
  return undefined;
}
