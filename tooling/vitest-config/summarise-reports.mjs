// The totals of `pnpm test` (run-all-tests.mjs), as a function over each package's vitest JSON report
// so it can be tested with fixture reports. Every package that should have run is counted honestly:
// a run that left no report, ran no tests, or reported `success: false` without a failed test counts
// as one failure with its reason on its row; skipped tests are counted and their titles listed, and
// failed tests listed with the first line of why, last before the totals (where a CI excerpt shows them).
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';

/**
 * @typedef {object} PackageRun
 * @property {string} name the package's row label (its directory, relative to the repository root)
 * @property {string} dir the package's absolute directory (test file paths are shown relative to it)
 * @property {string} reportPath where its vitest JSON report should be
 * @property {boolean} [ran] false when the package's test task was not part of this run (a
 *   `--filter`); it then has no row. Unknown (undefined) counts as ran.
 * @property {number | null} [exitCode] the test task's exit code, when turbo's run summary gave it
 * @property {string[]} [outputTail] the last lines the task printed, shown for a run with no report
 */

/**
 * @typedef {object} Row
 * @property {string} name
 * @property {number} passed
 * @property {number} failed
 * @property {number} skipped
 * @property {string[]} reasons why the package failed beyond its failed tests (and what else to know)
 */

/**
 * @param {PackageRun[]} runs
 * @param {{ otherFailures?: { name: string, reason: string }[], turboExitCode?: number | null }} [options]
 *   otherFailures: tasks other than the tests that failed (a build), one failure each;
 *   turboExitCode: turbo's own exit code, a failure of its own when nothing else explains it
 * @returns {{ rows: Row[], skippedTests: { name: string, titles: string[] }[],
 *   failedTests: { name: string, titles: string[] }[],
 *   outputTails: { name: string, lines: string[] }[], passed: number, failed: number, skipped: number }}
 */
export function summariseReports(runs, { otherFailures = [], turboExitCode = 0 } = {}) {
  const rows = [];
  const skippedTests = [];
  const failedTests = [];
  const outputTails = [];
  for (const run of runs) {
    if (run.ran === false) continue;
    const row = summariseOne(run);
    rows.push(row);
    if (row.skippedTitles.length > 0) skippedTests.push({ name: run.name, titles: row.skippedTitles });
    if (row.failedTitles.length > 0) failedTests.push({ name: run.name, titles: row.failedTitles });
    if (row.showOutput && run.outputTail?.length) outputTails.push({ name: run.name, lines: run.outputTail });
  }
  for (const { name, reason } of otherFailures) rows.push(failureRow(name, reason));
  if (turboExitCode !== 0 && !rows.some((row) => row.failed > 0)) {
    const how = turboExitCode === null ? 'was killed' : `exited with code ${turboExitCode}`;
    rows.push(failureRow('turbo', `turbo ${how} though no test failed (see its output above)`));
  }
  const total = (key) => rows.reduce((sum, row) => sum + row[key], 0);
  return {
    rows: rows.map(({ name, passed, failed, skipped, reasons }) => ({
      name,
      passed,
      failed,
      skipped,
      reasons,
    })),
    skippedTests,
    failedTests,
    outputTails,
    passed: total('passed'),
    failed: total('failed'),
    skipped: total('skipped'),
  };
}

/** A row counting one failure for `reason` (a run that left no usable report, a failed task). */
function failureRow(name, reason) {
  return { name, passed: 0, failed: 1, skipped: 0, reasons: [reason], skippedTitles: [], failedTitles: [] };
}

function summariseOne(run) {
  const exitNote =
    typeof run.exitCode === 'number' && run.exitCode !== 0 ? ` (exit code ${run.exitCode})` : '';
  const failure = (reason) => ({ ...failureRow(run.name, reason), showOutput: true });
  if (!existsSync(run.reportPath)) {
    return failure(`no report: the test run crashed before vitest wrote one${exitNote}`);
  }
  let report;
  try {
    report = JSON.parse(readFileSync(run.reportPath, 'utf8'));
  } catch (error) {
    return failure(`unreadable report: ${error.message}${exitNote}`);
  }
  const files = Array.isArray(report.testResults) ? report.testResults : [];
  // A test file that fails to load has no assertions but a failed suite: count it once.
  const brokenFiles = files.filter(
    (file) => file.status === 'failed' && (file.assertionResults ?? []).length === 0,
  ).length;
  const passed = report.numPassedTests ?? 0;
  let failed = (report.numFailedTests ?? 0) + brokenFiles;
  const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  const reasons = [];
  let showOutput = false;
  if (brokenFiles > 0) reasons.push(`${brokenFiles} file(s) failed to load`);
  if (failed === 0 && (report.numTotalTests ?? 0) === 0) {
    failed = 1;
    reasons.push('ran no tests');
  } else if (failed === 0 && report.success === false) {
    failed = 1;
    const message = firstErrorMessage(files);
    reasons.push(`vitest reported success: false — ${message ?? 'the report names no error'}`);
    showOutput = message === undefined;
  } else if (failed === 0 && exitNote) {
    // The JSON report leaves out unhandled errors; vitest's exit code does not.
    failed = 1;
    reasons.push(`vitest exited with code ${run.exitCode} though its report counts no failure`);
    showOutput = true;
  }
  return {
    name: run.name,
    passed,
    failed,
    skipped,
    reasons,
    skippedTitles: skippedTitles(files, run.dir),
    failedTitles: failedTitles(files, run.dir),
    showOutput,
  };
}

function firstErrorMessage(files) {
  for (const file of files) {
    if (file.message) return firstLine(file.message);
    for (const test of file.assertionResults ?? []) {
      if (test.failureMessages?.length) return firstLine(test.failureMessages[0]);
    }
  }
  return undefined;
}

function firstLine(text) {
  return (
    String(text)
      .split('\n')
      .find((line) => line.trim() !== '') ?? String(text)
  );
}

const SKIPPED = new Set(['skipped', 'pending', 'todo', 'disabled']);

/**
 * The skipped tests' full titles, `file › suite › test`. When every test of a suite is skipped the
 * suite is listed once (its outermost such suite), with its test count.
 */
function skippedTitles(files, dir) {
  const titles = [];
  for (const file of files) {
    const tests = file.assertionResults ?? [];
    const shown = new Set();
    const fileLabel = fileName(file.name, dir);
    for (const test of tests) {
      if (!SKIPPED.has(test.status)) continue;
      const ancestors = test.ancestorTitles ?? [];
      let label;
      for (let depth = 1; depth <= ancestors.length; depth += 1) {
        const suite = ancestors.slice(0, depth);
        const inSuite = tests.filter((other) => startsWith(other.ancestorTitles ?? [], suite));
        if (inSuite.every((other) => SKIPPED.has(other.status))) {
          label = `${[fileLabel, ...suite].join(' › ')} (whole suite, ${inSuite.length} test${inSuite.length === 1 ? '' : 's'})`;
          break;
        }
      }
      label ??= [fileLabel, ...ancestors, test.title].join(' › ');
      const status = test.status === 'todo' ? ' [todo]' : '';
      if (!shown.has(label)) {
        shown.add(label);
        titles.push(label + status);
      }
    }
  }
  return titles;
}

/** Each failed test as `file › suite › test: <first line of its failure>`; a file that failed to load, with its error. */
function failedTitles(files, dir) {
  const titles = [];
  for (const file of files) {
    const tests = file.assertionResults ?? [];
    const fileLabel = fileName(file.name, dir);
    if (file.status === 'failed' && tests.length === 0) {
      titles.push(`${fileLabel}: ${file.message ? firstLine(file.message) : 'failed to load'}`);
    }
    for (const test of tests) {
      if (test.status !== 'failed') continue;
      const why = test.failureMessages?.length ? `: ${firstLine(test.failureMessages[0])}` : '';
      titles.push(`${[fileLabel, ...(test.ancestorTitles ?? []), test.title].join(' › ')}${why}`);
    }
  }
  return titles;
}

function startsWith(list, prefix) {
  return prefix.every((item, index) => list[index] === item);
}

function fileName(path, dir) {
  if (typeof path !== 'string' || path === '') return '(unknown file)';
  if (!dir || !isAbsolute(path)) return path;
  const inside = relative(dir, path);
  return inside.startsWith('..') ? path : inside;
}

/** The table, the skipped tests, the output of runs that left no report, and the last line. */
export function formatSummary(summary) {
  const lines = ['', 'Test totals by package'];
  const width = Math.max(32, ...summary.rows.map((row) => row.name.length + 1));
  for (const row of summary.rows) {
    lines.push(
      `  ${row.name.padEnd(width)} ${String(row.passed).padStart(5)} passed ${String(row.failed).padStart(4)} failed ${String(row.skipped).padStart(4)} skipped  ${row.reasons.join('; ')}`.trimEnd(),
    );
  }
  if (summary.skippedTests.length > 0) {
    lines.push('', `Skipped tests (${summary.skipped})`);
    for (const { name, titles } of summary.skippedTests) {
      lines.push(`  ${name}`);
      for (const title of titles) lines.push(`    - ${title}`);
    }
  }
  for (const { name, lines: tail } of summary.outputTails) {
    lines.push('', `Last lines of ${name}'s test output`);
    for (const line of tail) lines.push(`  | ${line}`);
  }
  if (summary.failedTests.length > 0) {
    lines.push('', 'Failed tests');
    for (const { name, titles } of summary.failedTests) {
      lines.push(`  ${name}`);
      for (const title of titles) lines.push(`    - ${title}`);
    }
  }
  lines.push(totalsLine(summary));
  return lines.join('\n');
}

/** The plain last line CI reads: `N passed, N failed, N skipped`. */
export function totalsLine({ passed, failed, skipped }) {
  return `${passed} passed, ${failed} failed, ${skipped} skipped`;
}
