#!/usr/bin/env node
// Runs every workspace package's tests through turbo (never replayed from turbo's cache: the `test`
// task has `cache: false`), then sums the vitest JSON reports (summarise-reports.mjs) into a table
// and one plain last line, `N passed, N failed, N skipped`. A package that ran and left no report
// (a crash before vitest wrote one), ran no tests, or reported `success: false` counts as a failure
// with its reason on its row, so a broken package cannot look green. Extra arguments go to turbo
// (`pnpm test --filter @cairn/store-fs`).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { formatSummary, summariseReports } from './summarise-reports.mjs';

const root = resolve(import.meta.dirname, '../..');
const REPORT = '.test-results/vitest.json';
const TAIL_LINES = 40;

function workspacePackageDirs() {
  const yaml = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  // `dir/*` lists every package in dir; `dir/name` (no glob) one package (examples/ai-sdk-use-chat).
  const entries = [...yaml.matchAll(/^\s*-\s*['"]?([\w.-]+)\/([\w.-]+|\*)['"]?\s*$/gm)];
  return entries.flatMap(([, dir, name]) => {
    const abs = join(root, dir);
    if (!existsSync(abs)) return [];
    if (name !== '*') return existsSync(join(abs, name, 'package.json')) ? [join(abs, name)] : [];
    return readdirSync(abs, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(abs, entry.name, 'package.json')))
      .map((entry) => join(abs, entry.name));
  });
}

const tested = workspacePackageDirs().flatMap((dir) => {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  return typeof pkg.scripts?.test === 'string' ? [{ dir, packageName: pkg.name }] : [];
});
for (const { dir } of tested) rmSync(join(dir, '.test-results'), { recursive: true, force: true });

const args = process.argv.slice(2);
// --summarize: turbo writes a run summary naming every task it ran and its exit code.
// --ui=stream: every line prefixed with its task, so each package's output tail can be kept.
// How many packages test at once (turbo's default is 10): one per core, and at most one per 2 GiB of
// memory; CAIRN_TEST_CONCURRENCY (or a `--concurrency=N` argument) overrides. Each package's vitest
// reads it back and shares the cores among those packages (tooling/vitest-config/load.js), so
// packages × workers ≈ cores.
const concurrencyArg = args.find((arg) => arg.startsWith('--concurrency='))?.slice('--concurrency='.length);
const concurrencyWanted = concurrencyArg || process.env.CAIRN_TEST_CONCURRENCY?.trim();
// A count, or a percentage of the cores as turbo also takes ("50%").
const percent = /^(\d+(?:\.\d+)?)%$/.exec(concurrencyWanted ?? '');
const concurrency = String(
  percent
    ? Math.max(1, Math.floor((availableParallelism() * Number(percent[1])) / 100))
    : concurrencyWanted || Math.max(1, Math.min(availableParallelism(), Math.floor(totalmem() / 2 ** 31))),
);
const localTurbo = join(root, 'node_modules', '.bin', 'turbo');
const turbo = spawn(
  existsSync(localTurbo) ? localTurbo : 'turbo',
  [
    'run',
    'test',
    '--continue',
    '--summarize',
    '--ui=stream',
    `--concurrency=${concurrency}`,
    ...args.filter((arg) => !arg.startsWith('--concurrency=')),
  ],
  {
    cwd: root,
    stdio: ['inherit', 'pipe', 'pipe'],
    env: { ...process.env, CAIRN_TEST_CONCURRENCY: concurrency },
  },
);
const tails = new Map();
let summaryPath;
function keep(stream, out) {
  let pending = '';
  stream.on('data', (chunk) => {
    out.write(chunk);
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const task = /^(\S+):test: ?(.*)$/.exec(line);
      if (task) {
        const tail = tails.get(task[1]) ?? [];
        tail.push(task[2]);
        if (tail.length > TAIL_LINES) tail.shift();
        tails.set(task[1], tail);
      }
      const summary = /^\s*Summary:\s+(\S+\.json)\s*$/.exec(line);
      if (summary) summaryPath = summary[1];
    }
  });
}
keep(turbo.stdout, process.stdout);
keep(turbo.stderr, process.stderr);
const [turboExitCode] = await new Promise((done) => {
  turbo.on('error', (error) => {
    console.error(`could not start turbo: ${error.message}`);
    done([127]);
  });
  turbo.on('close', (code) => done([code]));
});

// Which test tasks ran, and how each ended, from turbo's run summary (then removed: one per run).
const taskExits = new Map();
const otherFailures = [];
let summary;
try {
  summary = summaryPath ? JSON.parse(readFileSync(resolve(root, summaryPath), 'utf8')) : undefined;
  if (summaryPath) rmSync(resolve(root, summaryPath), { force: true });
} catch {
  summary = undefined;
}
for (const task of summary?.tasks ?? []) {
  const exitCode = task.execution?.exitCode;
  if (task.task === 'test') taskExits.set(task.package, exitCode ?? null);
  else if (typeof exitCode === 'number' && exitCode !== 0) {
    otherFailures.push({ name: task.taskId, reason: `task failed (exit code ${exitCode})` });
  }
}
const filtered = args.some(
  (arg) => arg.startsWith('--filter') || arg.startsWith('-F') || arg.startsWith('--affected'),
);

const runs = tested.map(({ dir, packageName }) => ({
  name: relative(root, dir),
  dir,
  reportPath: join(dir, REPORT),
  // An unfiltered run must run every package. A filtered one runs those in turbo's summary (without
  // a summary: those that left a report or printed something).
  ran:
    !filtered ||
    (summary ? taskExits.has(packageName) : existsSync(join(dir, REPORT)) || tails.has(packageName)),
  exitCode: taskExits.get(packageName),
  outputTail: tails.get(packageName),
}));

const result = summariseReports(runs, { otherFailures, turboExitCode });
console.log(formatSummary(result));
process.exit(result.failed === 0 && turboExitCode === 0 ? 0 : 1);
