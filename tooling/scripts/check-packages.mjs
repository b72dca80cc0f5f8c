// `pnpm check:packages`: every public package installs and works on its own, as a user gets it.
//
// Needs `pnpm build` first. Packs every public package in packages/* with `pnpm pack` (which turns
// `workspace:` ranges into versions), then, for each package, in an empty project of its own:
//   - checks the tarball: no tests, fixtures, configs or stale build output; src/ only the sources
//     the build compiles, so that no source map points at a missing file; README.md, LICENSE and
//     package.json present; the publishing metadata; every export entry with `types`, `import` and
//     `default` (require(esm), bundlers) and no top-level await in what they import; every bare import
//     in its JavaScript names the package itself, a node: built-in or a declared (peer/optional)
//     dependency, and every bare import of its declaration files resolves to declarations once
//     installed;
//   - `npm install`s (plain npm, the machine's registry) its tarball with those of the @cairn packages
//     it depends on (dependencies and peerDependencies, transitively) and of the @cairn packages its
//     README example imports (e.g. @cairn/testing as a stand-in model), never from a registry: the
//     @cairn scope points at a local server that answers 404, so a missing tarball fails the install;
//   - require()s each of its entry points from CommonJS in that project, and runs each bin
//     (`--help`) in a project where only the package (and the @cairn packages it needs) is installed;
//   - runs the README example (the first ```js block) with node and compares what it prints with the
//     ```text block after "It prints:" — the convention of @cairn/vitest-config/readme-example. An
//     example that reads DATABASE_URL gets a throwaway PostgreSQL (@cairn/postgres-test-server), or
//     the server DATABASE_URL already names;
//   - a package with optional @cairn peers (connect's providers and stores) is also installed in a
//     second project without them: it must import, and its smoke in WITHOUT_OPTIONAL_PEERS (choosing
//     a peer that is not installed) must print what it says.
// Then all the checked packages together in one CommonJS project (`npm init -y`, no "type"): every
// entry point require()d, and a consumer of every entry point compiled by TypeScript `module:
// nodenext` to CommonJS and run, type-checked with `moduleResolution: bundler`, and bundled with
// esbuild and run (check-consumers.mjs).
// Then a dry run of `pnpm changeset version` (check-versioning.mjs).
//
// Usage: node tooling/scripts/check-packages.mjs [package-dir ...] [--keep] [--versioning]
//   package-dir   check only these (e.g. core store-sqlite); skips the versioning dry run
//   --versioning  only the versioning dry run
//   --keep        keep the temp dir (tarballs, projects) and print where it is
//   --compile-native  compile native dependencies (better-sqlite3) on install instead of offering
//                 the workspace's build of the same version as a local prebuild
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  checkRequire,
  checkTypescriptConsumers,
  entryPoints,
  requireScript,
  TYPESCRIPT_PACKAGES,
} from './check-consumers.mjs';
import {
  checkExports,
  checkMetadata,
  checkTarballFiles,
  findBrokenSourceMaps,
  findNodeFloorViolations,
  findStaleOutputs,
  findTopLevelAwait,
  findUndeclaredImports,
  findUntypedImports,
  importSpecifiers,
  packageNameOf,
  readmeExample,
} from './check-package-contents.mjs';
import { childEnv, killChildren, PNPM, run, tail } from './check-run.mjs';
import { checkVersioning } from './check-versioning.mjs';
import { cairnClosure, optionalCairnPeers, readPublicPackages } from './workspace-packages.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CONCURRENCY = 2;
const INSTALL_TIMEOUT_MS = 6 * 60_000;
const EXAMPLE_TIMEOUT_MS = 2 * 60_000;
/**
 * Native dependencies: on install they download a prebuilt binary from GitHub, else compile from
 * source (SQLite: minutes of CPU). The workspace's own build of the same version is offered as a
 * local prebuild (what prebuild-install looks for first); `from` is a package that depends on it.
 */
const NATIVE = [
  { name: 'better-sqlite3', from: 'packages/store-sqlite', binary: 'build/Release/better_sqlite3.node' },
];

/**
 * Per package with optional @cairn peers: a script run where none of them is installed, and what it
 * must print. Every such package is at least imported there.
 */
const WITHOUT_OPTIONAL_PEERS = {
  '@cairn/connect': {
    code: `import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exitCodeFor, formatErrorLine, openStore } from '@cairn/connect';
const dataDir = mkdtempSync(join(tmpdir(), 'cairn-connect-alone-'));
const store = await openStore({ store: 'fs', dataDir });
await store.close();
await openStore({ store: 'sqlite', dataDir }).catch((error) =>
  console.log(formatErrorLine('app', error), exitCodeFor(error)),
);
`,
    printed:
      'app: the sqlite store needs @cairn/store-sqlite, which is not installed [PACKAGE_MISSING] — run: npm install @cairn/store-sqlite 2\n',
  },
};

const args = process.argv.slice(2);
const keep = args.includes('--keep');
const compileNative = args.includes('--compile-native');
const versioningOnly = args.includes('--versioning');
const only = args.filter((arg) => !arg.startsWith('--'));
const runVersioning = only.length === 0 || versioningOnly;

const started = performance.now();
const seconds = (since = started) => `${((performance.now() - since) / 1000).toFixed(1)}s`;
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

// --- the packages -------------------------------------------------------------------------------

const publicPackages = readPublicPackages(ROOT);
const byName = new Map(publicPackages.map((pkg) => [pkg.manifest.name, pkg]));
const unknown = only.filter((name) => !publicPackages.some((pkg) => pkg.dirName === name));
if (unknown.length > 0) {
  console.error(`check:packages: no public package in packages/ named ${unknown.join(', ')}`);
  process.exit(2);
}
const selected =
  only.length > 0 ? publicPackages.filter((pkg) => only.includes(pkg.dirName)) : publicPackages;

/**
 * `names` and every @cairn package they depend on, transitively; unknown (private, missing) names in
 * `missing`. Without `withOptionalPeers`, as a user who installs only the package gets it.
 */
const closure = (names, options) => cairnClosure(byName, names, options);

// --- shared services: the @cairn scope's "registry", PostgreSQL ----------------------------------

/** An HTTP server answering 404 to everything: the @cairn scope's registry during installs. */
async function startNoRegistry() {
  const server = createServer((_request, response) => {
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end('{"error":"Not found: @cairn packages are installed from their tarballs only"}');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() };
}

let postgres;
/** DATABASE_URL for examples that need one: the environment's, else a throwaway server (started once). */
function databaseUrl() {
  if (process.env.DATABASE_URL) return Promise.resolve(process.env.DATABASE_URL);
  postgres ??= import('../postgres-test-server/index.js').then(({ startPostgres }) => startPostgres());
  return postgres.then((server) => server.url);
}

/**
 * `<dir>/<name>-v<version>-node-v<abi>-<platform><libc>-<arch>.tar.gz` for each native dependency
 * the workspace has built; returns the environment that points prebuild-install at them and their
 * name@version. A project that resolves another version (or Node) finds no file there and compiles
 * from source.
 */
async function localPrebuilds(dir) {
  const env = {};
  const names = [];
  const libc =
    process.platform === 'linux' && !process.report.getReport().header.glibcVersionRuntime ? 'musl' : '';
  for (const { name, from, binary } of NATIVE) {
    let packageDir;
    try {
      packageDir = dirname(createRequire(join(ROOT, from, 'package.json')).resolve(`${name}/package.json`));
    } catch {
      continue;
    }
    if (!existsSync(join(packageDir, binary))) continue;
    const { version } = readJson(join(packageDir, 'package.json'));
    const abi = process.versions.modules;
    const file = `${name}-v${version}-node-v${abi}-${process.platform}${libc}-${process.arch}.tar.gz`;
    mkdirSync(dir, { recursive: true });
    const tar = await run('tar', ['-czf', join(dir, file), '-C', packageDir, binary]);
    if (tar.code !== 0) throw new Error(`cannot pack the ${name} binary: ${tail(tar.stderr)}`);
    env[`npm_config_${name.replace(/[^a-zA-Z0-9]/g, '_')}_local_prebuilds`] = dir;
    names.push(`${name}@${version}`);
  }
  return { env, names };
}

// --- one package --------------------------------------------------------------------------------

function firstDifference(actual, expected) {
  const a = actual.split('\n');
  const b = expected.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) {
      return `line ${i + 1}: printed ${JSON.stringify(a[i] ?? '<nothing>')}, README says ${JSON.stringify(b[i] ?? '<nothing>')}`;
    }
  }
  return 'differs';
}

/**
 * `npm install`s the tarballs of `names` (and the registry packages `extra`) into a new empty
 * project at `project`, the @cairn scope pointing at the 404 registry: an ESM one (`"type":
 * "module"`), or with `commonjs` a CommonJS one as `npm init -y` leaves it. Returns what went wrong,
 * if anything.
 */
async function installProject(
  project,
  names,
  { tarballs, registryUrl, installEnv },
  { commonjs = false, extra = [] } = {},
) {
  mkdirSync(project, { recursive: true });
  const init = await run('npm', ['init', '-y'], { cwd: project, timeoutMs: 60_000 });
  if (init.code !== 0) return `npm init failed: ${tail(init.stderr)}`;
  const projectManifest = readJson(join(project, 'package.json'));
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ ...projectManifest, private: true, ...(commonjs ? {} : { type: 'module' }) }, null, 2)}\n`,
  );
  const install = await run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      `--@cairn:registry=${registryUrl}`,
      ...names.map((dep) => tarballs.get(dep).file),
      ...extra,
    ],
    { cwd: project, env: childEnv(installEnv), timeoutMs: INSTALL_TIMEOUT_MS },
  );
  if (install.code === 0) return undefined;
  const why = install.timedOut ? `timed out after ${INSTALL_TIMEOUT_MS / 1000}s` : `exit ${install.code}`;
  return `npm install failed (${why}): ${tail(install.stderr)}`;
}

/**
 * A package with optional @cairn peers, installed without them as a user who wants none of them
 * gets it: it imports, and its WITHOUT_OPTIONAL_PEERS smoke prints what it says.
 */
async function checkWithoutOptionalPeers(pkg, context) {
  const name = pkg.manifest.name;
  if (optionalCairnPeers(pkg.manifest).length === 0) return [];
  const where = 'without its optional peers';
  const project = join(context.workDir, 'projects', `${pkg.dirName}-without-optional-peers`);
  const { names } = closure([name], { withOptionalPeers: false });
  const installFailure = await installProject(project, names, context);
  if (installFailure !== undefined) return [`${where}: ${installFailure}`];
  const smoke = WITHOUT_OPTIONAL_PEERS[name] ?? {
    code: `await import(${JSON.stringify(name)});\n`,
    printed: '',
  };
  writeFileSync(join(project, 'smoke.mjs'), smoke.code);
  const result = await run(process.execPath, ['smoke.mjs'], {
    cwd: project,
    env: childEnv(),
    timeoutMs: EXAMPLE_TIMEOUT_MS,
  });
  if (result.code !== 0)
    return [`${where}: the smoke failed (exit ${result.code}): ${tail(result.stderr, 3)}`];
  if (result.stdout !== smoke.printed) {
    return [`${where}: the smoke printed something else: ${firstDifference(result.stdout, smoke.printed)}`];
  }
  return [];
}

/**
 * Each bin of the package runs (`--help`) in a project where only the package is installed (with
 * the @cairn packages it depends on, not its optional peers): what a bin imports must be installed
 * with it.
 */
async function checkBins(pkg, packed, context) {
  const bins = typeof packed.bin === 'string' ? { [packed.name]: packed.bin } : (packed.bin ?? {});
  if (Object.keys(bins).length === 0) return [];
  const where = 'its bins, installed alone';
  const project = join(context.workDir, 'projects', `${pkg.dirName}-bins`);
  const { names } = closure([packed.name], { withOptionalPeers: false });
  const installFailure = await installProject(project, names, context);
  if (installFailure !== undefined) return [`${where}: ${installFailure}`];
  const problems = [];
  for (const bin of Object.keys(bins)) {
    const result = await run(process.execPath, [join('node_modules', '.bin', bin), '--help'], {
      cwd: project,
      env: childEnv(),
      timeoutMs: EXAMPLE_TIMEOUT_MS,
    });
    if (result.code !== 0 || !/usage/i.test(result.stdout)) {
      const error = /Error \[[A-Z_]+\]:.*|^\w*Error:.*$/m.exec(result.stderr)?.[0] ?? tail(result.stderr, 3);
      problems.push(`${where}: \`${bin} --help\` failed (exit ${result.code}): ${error}`);
    }
  }
  return problems;
}

/**
 * All the checked packages together in one CommonJS project (`npm init -y`, no `"type"`): each
 * entry point require()d, and a consumer of every entry point compiled by TypeScript `module:
 * nodenext` to CommonJS and run, type-checked with `moduleResolution: bundler`, and bundled with
 * esbuild and run (check-consumers.mjs).
 */
async function checkConsumers(packages, context) {
  const project = join(context.workDir, 'projects', 'consumers-commonjs');
  const { names } = closure(packages.map((pkg) => pkg.manifest.name));
  const installFailure = await installProject(project, names, context, {
    commonjs: true,
    extra: TYPESCRIPT_PACKAGES,
  });
  if (installFailure !== undefined) return [installFailure];
  const manifests = names.map((name) =>
    readJson(join(project, 'node_modules', ...name.split('/'), 'package.json')),
  );
  const specifiers = manifests.flatMap(entryPoints);
  writeFileSync(join(project, 'require-entries.js'), requireScript(specifiers));
  const required = await run(process.execPath, ['require-entries.js'], {
    cwd: project,
    env: childEnv(),
    timeoutMs: EXAMPLE_TIMEOUT_MS,
  });
  const problems = [];
  if (required.code !== 0) {
    problems.push(`require() of every entry point failed: ${tail(required.stderr, 3)}`);
  }
  problems.push(...(await checkTypescriptConsumers(project, manifests)));
  return problems;
}

async function checkPackage(pkg, context) {
  const { tarballs, workDir } = context;
  const name = pkg.manifest.name;
  const problems = [];
  const tarball = tarballs.get(name);

  // What the tarball ships.
  const listing = await run('tar', ['-tzf', tarball.file]);
  const paths = listing.stdout.split('\n').filter(Boolean);
  const packed = readJson(join(tarball.unpacked, 'package.json'));
  problems.push(...checkTarballFiles(paths, packed));
  problems.push(...findStaleOutputs(paths, pkg.dir));
  problems.push(...checkMetadata(packed, pkg.dirName));
  problems.push(...checkExports(packed));
  problems.push(...findBrokenSourceMaps(tarball.unpacked));
  problems.push(...findTopLevelAwait(tarball.unpacked, packed));
  problems.push(...findUndeclaredImports(tarball.unpacked, packed));

  // The README example and what it imports.
  const readmePath = join(tarball.unpacked, 'README.md');
  const { code, printed } = existsSync(readmePath) ? readmeExample(readFileSync(readmePath, 'utf8')) : {};
  if (code === undefined) problems.push('the README has no ```js example');
  if (printed === undefined) problems.push('the README has no "It prints:" ```text block after its example');
  const imported = new Set(
    code === undefined ? [] : importSpecifiers(code).map(packageNameOf).filter(Boolean),
  );
  const exampleCairn = [...imported].filter((dep) => dep.startsWith('@cairn/') && dep !== name);
  const { names: installNames, missing } = closure([name, ...exampleCairn]);
  for (const dep of missing) problems.push(`needs ${dep}, which is not a public package in packages/`);
  const declaredInClosure = new Set(
    installNames.flatMap((dep) => {
      const manifest = byName.get(dep).manifest;
      return Object.keys({
        ...manifest.dependencies,
        ...manifest.peerDependencies,
        ...manifest.optionalDependencies,
      });
    }),
  );
  for (const dep of imported) {
    if (!dep.startsWith('@cairn/') && !declaredInClosure.has(dep)) {
      problems.push(`the README example imports ${dep}, which none of ${installNames.join(', ')} declares`);
    }
  }

  // Install into an empty project.
  const project = join(workDir, 'projects', pkg.dirName);
  const installFailure = await installProject(project, installNames, context);
  if (installFailure !== undefined) return [...problems, installFailure];
  // The types its declarations use resolve for a TypeScript consumer.
  problems.push(...findUntypedImports(join(project, 'node_modules', ...name.split('/'))));
  problems.push(...findNodeFloorViolations(project, name));
  // CommonJS: every entry point loads with require() (Node's require(esm)), in the same project.
  problems.push(...(await checkRequire(project, packed)));
  problems.push(...(await checkBins(pkg, packed, context)));
  if (code === undefined) return problems;

  problems.push(...(await checkWithoutOptionalPeers(pkg, context)));

  // Run the example.
  writeFileSync(join(project, 'example.mjs'), code);
  const extraEnv = {};
  if (code.includes('DATABASE_URL')) {
    try {
      extraEnv.DATABASE_URL = await databaseUrl();
    } catch (error) {
      return [...problems, `the example needs PostgreSQL, which could not be started: ${error.message}`];
    }
  }
  const example = await run(process.execPath, ['example.mjs'], {
    cwd: project,
    env: childEnv(extraEnv),
    timeoutMs: EXAMPLE_TIMEOUT_MS,
  });
  if (example.code !== 0) {
    const why = example.timedOut ? `timed out after ${EXAMPLE_TIMEOUT_MS / 1000}s` : `exit ${example.code}`;
    const error = /Error \[[A-Z_]+\]:.*|^\w*Error:.*$/m.exec(example.stderr)?.[0] ?? tail(example.stderr, 3);
    problems.push(`the README example failed (${why}): ${error}`);
  } else if (printed !== undefined && example.stdout !== printed) {
    problems.push(
      `the README example's output differs from "It prints:": ${firstDifference(example.stdout, printed)}`,
    );
  }
  return problems;
}

// --- main ---------------------------------------------------------------------------------------

async function packAll(workDir) {
  const missingDist = publicPackages.filter((pkg) => !existsSync(join(pkg.dir, 'dist')));
  if (missingDist.length > 0) {
    throw new Error(
      `no dist in ${missingDist.map((pkg) => `packages/${pkg.dirName}`).join(', ')}: run \`pnpm build\` first`,
    );
  }
  const destination = join(workDir, 'tarballs');
  mkdirSync(destination, { recursive: true });
  const filters = publicPackages.flatMap((pkg) => ['--filter', pkg.manifest.name]);
  const pack = await run(
    'npx',
    [...PNPM, '-r', ...filters, 'pack', '--pack-destination', destination, '--json'],
    {
      cwd: ROOT,
      timeoutMs: 180_000,
    },
  );
  if (pack.code !== 0) throw new Error(`pnpm pack failed: ${tail(pack.stderr + pack.stdout)}`);
  const packed = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('[')));
  const tarballs = new Map();
  for (const { name, filename } of packed) {
    const unpacked = join(workDir, 'unpacked', name.replace('@cairn/', ''));
    mkdirSync(unpacked, { recursive: true });
    const extract = await run('tar', ['-xzf', filename, '-C', unpacked, '--strip-components=1']);
    if (extract.code !== 0) throw new Error(`cannot extract ${filename}: ${tail(extract.stderr)}`);
    tarballs.set(name, { file: filename, unpacked });
  }
  const unpackedNames = publicPackages.filter((pkg) => !tarballs.has(pkg.manifest.name));
  if (unpackedNames.length > 0) {
    throw new Error(
      `pnpm pack made no tarball for ${unpackedNames.map((pkg) => pkg.manifest.name).join(', ')}`,
    );
  }
  return tarballs;
}

/** Runs `task` over `items`, `limit` at a time, in order. */
async function pool(items, limit, task) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

function nativeFirst(packages) {
  const needsNative = (pkg) =>
    closure([pkg.manifest.name]).names.some((dep) =>
      // better-sqlite3 is an optional dependency of @cairn/store-sqlite: npm still builds it.
      Object.keys({
        ...byName.get(dep).manifest.dependencies,
        ...byName.get(dep).manifest.optionalDependencies,
      }).some((name) => NATIVE.some((native) => native.name === name)),
    );
  return [...packages].sort((a, b) => Number(needsNative(b)) - Number(needsNative(a)));
}

const workDir = mkdtempSync(join(tmpdir(), 'cairn-check-packages-'));
let registry;
const failures = [];
const width = Math.max(...selected.map((pkg) => pkg.manifest.name.length), '(versioning)'.length);

function cleanUp() {
  registry?.close();
  if (!keep) rmSync(workDir, { recursive: true, force: true });
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, async () => {
    killChildren();
    const { stopAllSync } = await import('../postgres-test-server/index.js');
    stopAllSync();
    cleanUp();
    process.exit(130);
  });
}

try {
  if (!versioningOnly) {
    const tarballs = await packAll(workDir);
    registry = await startNoRegistry();
    const prebuilds = compileNative
      ? { env: {}, names: [] }
      : await localPrebuilds(join(workDir, 'prebuilds'));
    const installEnv = prebuilds.env;
    const prebuilt =
      prebuilds.names.length > 0 ? `; prebuilt ${prebuilds.names.join(', ')} from the workspace` : '';
    console.log(
      `packed ${tarballs.size} public packages (${seconds()}); checking ${selected.length}, ${CONCURRENCY} at a time (${cpus().length} CPUs${prebuilt})`,
    );
    await pool(nativeFirst(selected), CONCURRENCY, async (pkg) => {
      const packageStarted = performance.now();
      let problems;
      try {
        problems = await checkPackage(pkg, { tarballs, workDir, registryUrl: registry.url, installEnv });
      } catch (error) {
        problems = [`check crashed: ${error.stack ?? error}`];
      }
      const label = pkg.manifest.name.padEnd(width);
      if (problems.length === 0) console.log(`ok   ${label}  (${seconds(packageStarted)})`);
      else {
        failures.push(pkg.manifest.name);
        console.log(`FAIL ${label}  ${problems.join('; ')} (${seconds(packageStarted)})`);
      }
    });
    const consumersStarted = performance.now();
    let problems;
    try {
      problems = await checkConsumers(selected, {
        tarballs,
        workDir,
        registryUrl: registry.url,
        installEnv,
      });
    } catch (error) {
      problems = [`check crashed: ${error.stack ?? error}`];
    }
    const label = '(consumers)'.padEnd(width);
    const what = 'together: require(), TypeScript nodenext→CommonJS, bundler resolution, esbuild bundle';
    if (problems.length === 0) console.log(`ok   ${label}  ${what} (${seconds(consumersStarted)})`);
    else {
      failures.push('consumers');
      console.log(`FAIL ${label}  ${what}: ${problems.join('; ')} (${seconds(consumersStarted)})`);
    }
  }
  if (runVersioning) {
    const versioningStarted = performance.now();
    const result = await checkVersioning();
    const label = '(versioning)'.padEnd(width);
    if (result.ok)
      console.log(
        `ok   ${label}  changeset version dry run: ${result.summary} (${seconds(versioningStarted)})`,
      );
    else {
      failures.push('versioning');
      console.log(
        `FAIL ${label}  changeset version dry run: ${result.problems.join('; ')} (${seconds(versioningStarted)})`,
      );
    }
  }
} catch (error) {
  failures.push('setup');
  console.log(`FAIL ${error.message}`);
} finally {
  if (postgres) await postgres.then((server) => server.stop()).catch(() => {});
  cleanUp();
}

const parts = [
  ...(versioningOnly ? [] : [`${selected.length} packages`]),
  ...(runVersioning ? ['versioning'] : []),
];
console.log(
  failures.length === 0
    ? `check:packages: all passed (${parts.join(' + ')}) in ${seconds()}`
    : `check:packages: FAILED: ${failures.join(', ')} (of ${parts.join(' + ')}) in ${seconds()}`,
);
if (keep) console.log(`kept ${workDir}`);
process.exitCode = failures.length === 0 ? 0 : 1;
