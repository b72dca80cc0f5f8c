// pnpm bench [--filter <name>]... [--out <file>] [--no-build] [--timeout <minutes>] [--crash-trials <n>] [--list]
//
// Builds the benched packages (turbo, with their dependencies), then runs every workspace package's
// `bench` script one after another (never in parallel: they measure time), shows their output as it
// comes, reads the JSON line each prints last (`report()` of @cairn/bench) and writes
// docs/benchmarks.md: the machine, Node, date and load average, then one table with a row per figure
// (value, goal, met, the peer or baseline measured side by side in the same run, detail).
//
// The environment is passed through (BENCH_* sizes of the server bench, …); --crash-trials <n> is
// passed to the benches whose script takes it (the stores' SIGKILL crash test, 500 trials by
// default, most of the whole run's time). Exit code: 2 when a bench fails to run, times out or
// prints no JSON line; 1 when a goal is missed (as each bench exits); 0 otherwise. The document is
// written in every case.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, release, totalmem, type } from 'node:os';
import { delimiter, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { lastReport, renderMarkdown, summarize, summaryLine } from './bench-report.mjs';
import { killChildren, runInProcessGroup } from './run-process-group.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const WORKSPACE_DIRS = ['packages', 'apps', 'tooling'];

const { values: options } = parseArgs({
  options: {
    filter: { type: 'string', multiple: true, default: [] },
    out: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
    timeout: { type: 'string', default: '30' },
    'crash-trials': { type: 'string' },
    list: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (options.help) {
  console.log(
    'pnpm bench [--filter <name>]... [--out <file>] [--no-build] [--timeout <minutes per bench>] [--crash-trials <n>] [--list]\n' +
      '  --filter  package name, its short name or its directory (loop, @cairn/loop, packages/loop); repeatable\n' +
      '  --out     the markdown file to write, from the repository root (default docs/benchmarks.md)\n' +
      '  --crash-trials <n>  passed to the benches that take it (the stores; 500 by default)\n' +
      '  BENCH_* environment variables are passed to the benches (see apps/server/bench/run.mjs).',
  );
  process.exit(0);
}
const timeoutMs = Number(options.timeout) * 60_000;
if (!(timeoutMs > 0)) {
  console.error(`bench-all: --timeout takes minutes, not ${options.timeout}`);
  process.exit(2);
}

// ---- The benches: every workspace package with a `bench` script ----

function findBenches() {
  const benches = [];
  for (const parent of WORKSPACE_DIRS) {
    const parentDir = join(root, parent);
    if (!existsSync(parentDir)) continue;
    for (const entry of readdirSync(parentDir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const manifestFile = join(parentDir, entry.name, 'package.json');
      if (!entry.isDirectory() || !existsSync(manifestFile)) continue;
      const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
      const command = manifest.scripts?.bench;
      if (command === undefined) continue;
      // Whether the bench's script takes --crash-trials (it parses its arguments strictly).
      const script = command.match(/\S+\.m?js\b/)?.[0];
      const scriptFile = script === undefined ? undefined : join(parentDir, entry.name, script);
      const crashTrials =
        scriptFile !== undefined &&
        existsSync(scriptFile) &&
        readFileSync(scriptFile, 'utf8').includes("'crash-trials'");
      benches.push({ name: manifest.name, dir: `${parent}/${entry.name}`, command, crashTrials });
    }
  }
  // Packages before apps: the server's load test, the longest, last.
  return benches.sort(
    (a, b) => WORKSPACE_DIRS.indexOf(a.dir.split('/')[0]) - WORKSPACE_DIRS.indexOf(b.dir.split('/')[0]),
  );
}

const filters = options.filter.flatMap((value) => value.split(',')).filter((value) => value !== '');
const matches = (bench, filter) =>
  [bench.name, bench.dir, bench.name.replace(/^@[^/]+\//, ''), bench.dir.split('/').at(-1)].includes(
    filter.replace(/\/$/, ''),
  );
const all = findBenches();
for (const filter of filters) {
  if (all.some((bench) => matches(bench, filter))) continue;
  console.error(
    `bench-all: --filter ${filter} matches no bench (${all.map((bench) => bench.name).join(', ')})`,
  );
  process.exit(2);
}
const benches = filters.length === 0 ? all : all.filter((bench) => filters.some((f) => matches(bench, f)));
const crashTrials = options['crash-trials'];
if (crashTrials !== undefined) {
  if (!/^[1-9]\d*$/.test(crashTrials)) {
    console.error(`bench-all: --crash-trials takes a positive number, not ${crashTrials}`);
    process.exit(2);
  }
  for (const bench of benches) if (bench.crashTrials) bench.command += ` --crash-trials ${crashTrials}`;
}
if (options.list) {
  for (const bench of benches)
    console.log(`${bench.name.padEnd(28)} ${bench.dir.padEnd(28)} ${bench.command}`);
  process.exit(0);
}

// ---- Build ----

const startedAt = new Date();
const started = performance.now();
const loadBefore = loadavg();
const seconds = (since) => (performance.now() - since) / 1000;
const binPath = (dir) =>
  [join(root, dir, 'node_modules/.bin'), join(root, 'node_modules/.bin'), process.env.PATH].join(delimiter);

console.log(
  `bench-all: ${benches.length} bench${benches.length === 1 ? '' : 'es'} (${benches.map((bench) => bench.name).join(', ')}); ` +
    `${availableParallelism()} cores, load average ${loadBefore.map((v) => v.toFixed(2)).join(' / ')}`,
);
if (options['no-build']) {
  const unbuilt = benches.filter((bench) => !existsSync(join(root, bench.dir, 'dist')));
  if (unbuilt.length > 0) {
    console.error(`bench-all: --no-build, but not built: ${unbuilt.map((bench) => bench.dir).join(', ')}`);
    console.error('bench-all: run `pnpm build` first, or drop --no-build');
    process.exit(2);
  }
  console.log('bench-all: --no-build: using the dist/ folders as they are');
} else {
  console.log('bench-all: building the benched packages and their dependencies (turbo run build)');
  const env = { ...process.env, PATH: binPath('.') };
  const turbo = [
    'run',
    'build',
    '--output-logs=errors-only',
    ...benches.map((bench) => `--filter=${bench.name}`),
  ];
  // turbo needs pnpm on the PATH (it is under `pnpm bench`); run directly with node, it comes from
  // npx, at the root's packageManager version.
  const pnpmOnPath = spawnSync('pnpm', ['--version'], { env, stdio: 'ignore' }).status === 0;
  const { packageManager } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const build = pnpmOnPath
    ? spawnSync('turbo', turbo, { cwd: root, stdio: 'inherit', env })
    : spawnSync('npx', ['-y', packageManager, 'exec', 'turbo', ...turbo], {
        cwd: root,
        stdio: 'inherit',
        env,
      });
  if (build.status !== 0) {
    console.error(`bench-all: the build failed (${build.error?.message ?? `exit code ${build.status}`})`);
    process.exit(2);
  }
}
const buildSeconds = seconds(started);

// ---- Run each bench, one at a time ----

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    // The bench runs in its own process group (with the servers it forks): stop all of it.
    killChildren('SIGTERM');
    process.exit(130);
  });
}

const runBench = (bench) =>
  runInProcessGroup(bench.command, [], {
    cwd: join(root, bench.dir),
    env: { ...process.env, PATH: binPath(bench.dir) },
    timeoutMs,
    shell: true,
    echo: true,
  });

const runs = [];
const benchesStarted = performance.now();
for (const bench of benches) {
  const loadBeforeBench = loadavg();
  console.log(
    `\nbench-all: ${bench.name} (${bench.dir}: ${bench.command}), load average ${loadBeforeBench
      .map((v) => v.toFixed(2))
      .join(' / ')}`,
  );
  const benchStarted = performance.now();
  const { stdout, stderr, code: exitCode, signal, timedOut } = await runBench(bench);
  const result = lastReport(stdout);
  const lastError =
    stderr
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => /error|throw|failed/i.test(line))
      .at(-1) ??
    stderr.trim().split('\n').at(-1) ??
    '';
  let failure;
  if (timedOut) failure = `timed out after ${options.timeout} min`;
  else if (result === undefined) failure = `exit code ${exitCode ?? signal}, no JSON line`;
  // Each bench exits with 1 when a goal is missed; any other non-zero exit (or a throw after the
  // report, with every goal met) is a failure.
  else if (exitCode !== 0 && !(exitCode === 1 && result.ok === false))
    failure = `exit code ${exitCode ?? signal} after its report`;
  const run = {
    ...bench,
    result,
    failure,
    lastError: failure === undefined ? '' : lastError,
    exitCode,
    signal,
    seconds: seconds(benchStarted),
    loadBefore: loadBeforeBench,
  };
  runs.push(run);
  console.log(
    `bench-all: ${bench.name} ${failure !== undefined ? `FAILED (${failure})` : result.ok === false ? 'done, a goal MISSED' : 'done'} in ${run.seconds.toFixed(0)} s`,
  );
}

// ---- The document ----

const totalSeconds = seconds(started);
const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' });
const dirty = spawnSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' });
const info = {
  cpus: availableParallelism(),
  cpuModel: cpus()[0]?.model.trim() ?? 'unknown CPU',
  memoryGB: totalmem() / 2 ** 30,
  os: `${type()} ${release()}`,
  node: process.version,
  commit:
    commit.status === 0
      ? `${commit.stdout.trim()}${dirty.stdout.trim() === '' ? '' : ' with uncommitted changes'}`
      : 'unknown',
  startedAt: startedAt
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ''),
  totalSeconds,
  buildSeconds,
  benchSeconds: seconds(benchesStarted),
  loadBefore,
  loadAfter: loadavg(),
  settings: Object.fromEntries(
    Object.entries(process.env)
      .filter(([key]) => key.startsWith('BENCH_'))
      .sort(([a], [b]) => a.localeCompare(b)),
  ),
  filter: filters,
  crashTrials:
    crashTrials === undefined
      ? undefined
      : {
          trials: crashTrials,
          benches: benches.filter((bench) => bench.crashTrials).map((bench) => bench.name),
        },
};
// A relative --out is from the repository root (where pnpm runs the root's scripts).
const outFile = resolve(root, options.out ?? 'docs/benchmarks.md');
mkdirSync(dirname(outFile), { recursive: true });
writeFileSync(outFile, renderMarkdown(info, runs));

const summary = summarize(runs);
console.log(`\nbench-all: ${summaryLine(summary, totalSeconds)}`);
console.log(
  `bench-all: load average ${info.loadAfter.map((v) => v.toFixed(2)).join(' / ')} after the run; wrote ${relative(root, outFile).startsWith('..') ? outFile : relative(root, outFile)}`,
);
process.exitCode = summary.failed.length > 0 ? 2 : summary.missed.length > 0 ? 1 : 0;
