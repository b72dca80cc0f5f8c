// Runs the README's command 2 several times in a row, each on a fresh clone of the repository's
// HEAD, while another full test run (in a clone of its own, over and over) loads the machine: the
// proof that the suite passes on a busy machine, not only on a quiet one.
//
//   node tooling/scripts/soak-tests.mjs [--runs 5] [--no-load] [--keep]
//
// Prints each run's totals line and duration, then a table and one JSON line; exits 1 unless every
// run ended with `N passed, 0 failed`. Commit first: the clones take HEAD, not the working tree.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { childEnv, PNPM } from './check-run.mjs';
import { killChildren, runInProcessGroup } from './run-process-group.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const COMMAND_2 = `npx ${PNPM.join(' ')} install --frozen-lockfile && npx ${PNPM.join(' ')} test`;
const RUN_LIMIT_MS = 90 * 60_000;
const TOTALS = /^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/m;

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    'no-load': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1)
  throw new Error(`--runs must be a positive integer, not ${values.runs}`);

const work = mkdtempSync(join(tmpdir(), 'cairn-soak-'));
const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
const clone = (name) => {
  const dir = join(work, name);
  rmSync(dir, { recursive: true, force: true });
  execFileSync('git', ['clone', '--quiet', '--no-local', ROOT, dir]);
  execFileSync('git', ['checkout', '--quiet', head], { cwd: dir });
  return dir;
};
const shell = (cwd, timeoutMs) =>
  runInProcessGroup(COMMAND_2, [], { cwd, env: childEnv({ CI: 'true' }), timeoutMs, shell: true });

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    killChildren();
    process.exit(1);
  });
}

console.log(`soak: ${runs} run(s) of \`${COMMAND_2}\` on fresh clones of ${head.slice(0, 12)} in ${work}`);
console.log(
  `soak: ${availableParallelism()} cores; load: ${values['no-load'] ? 'none' : 'a full test run, looped'}`,
);

// The load: full test runs one after another in their own clone until the soak runs are done.
let soaking = true;
let loadRuns = 0;
const load = values['no-load']
  ? Promise.resolve()
  : (async () => {
      const dir = clone('load');
      while (soaking) {
        await shell(dir, RUN_LIMIT_MS);
        loadRuns += 1;
      }
    })();

const results = [];
for (let run = 1; run <= runs; run++) {
  const dir = clone('run');
  const started = performance.now();
  const result = await shell(dir, RUN_LIMIT_MS);
  const seconds = Math.round((performance.now() - started) / 1000);
  const output = `${result.stdout}\n${result.stderr}`;
  writeFileSync(join(work, `run-${run}.log`), output);
  const totals = TOTALS.exec(result.stdout.split('\n').filter(Boolean).slice(-5).join('\n'));
  const line = totals?.[0] ?? `no totals line (exit ${result.code}${result.timedOut ? ', timed out' : ''})`;
  const ok = result.code === 0 && totals !== null && totals[2] === '0';
  results.push({ run, seconds, line, ok });
  // A failed run's clone is kept whole (its vitest reports, turbo's summary), for the post-mortem.
  const kept = join(work, `run-${run}`);
  if (!ok) renameSync(dir, kept);
  console.log(
    `soak: run ${run}/${runs}: ${line} in ${seconds}s${ok ? '' : `  (log: ${join(work, `run-${run}.log`)}, clone: ${kept})`}`,
  );
}
soaking = false;
killChildren();
await load;

console.log('\nrun  seconds  totals');
for (const { run, seconds, line } of results)
  console.log(`${String(run).padStart(3)}  ${String(seconds).padStart(7)}  ${line}`);
const passed = results.every((result) => result.ok);
console.log(
  JSON.stringify({
    head,
    runs,
    load: !values['no-load'],
    loadRuns,
    passed,
    results: results.map(({ ok, ...rest }) => rest),
  }),
);
if (!values.keep && passed) rmSync(work, { recursive: true, force: true });
process.exitCode = passed ? 0 : 1;
