// The totals of `pnpm test`: fixture vitest JSON reports (the shape vitest 3's json reporter writes)
// for each way a package's run can go, and how each is counted.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatSummary, summariseReports } from './summarise-reports.mjs';

const root = mkdtempSync(join(tmpdir(), 'cairn-totals-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function assertion(ancestorTitles, title, status, failureMessages = []) {
  return {
    ancestorTitles,
    fullName: [...ancestorTitles, title].join(' '),
    status,
    title,
    failureMessages,
    meta: {},
  };
}

function report(files, overrides = {}) {
  const tests = files.flatMap((file) => file.assertionResults);
  const count = (status) => tests.filter((t) => t.status === status).length;
  const failedFiles = files.filter((file) => file.status === 'failed').length;
  return {
    numTotalTestSuites: files.length,
    numPassedTestSuites: files.length - failedFiles,
    numFailedTestSuites: failedFiles,
    numPendingTestSuites: 0,
    numTotalTests: tests.length,
    numPassedTests: count('passed'),
    numFailedTests: count('failed'),
    numPendingTests: count('skipped') + count('pending'),
    numTodoTests: count('todo'),
    startTime: 0,
    success: files.length > 0 && failedFiles === 0 && count('failed') === 0,
    testResults: files,
    ...overrides,
  };
}

/** A package directory with `content` as its report (none when undefined). */
function run(name, content, extra = {}) {
  const dir = join(root, name);
  const reportPath = join(dir, '.test-results', 'vitest.json');
  mkdirSync(join(dir, '.test-results'), { recursive: true });
  if (content !== undefined) {
    writeFileSync(reportPath, typeof content === 'string' ? content : JSON.stringify(content));
  }
  return { name: `packages/${name}`, dir, reportPath, ...extra };
}

function file(dir, path, assertionResults, status, message = '') {
  const failed = assertionResults.some((t) => t.status === 'failed');
  return {
    assertionResults,
    startTime: 0,
    endTime: 1,
    status: status ?? (failed ? 'failed' : 'passed'),
    message,
    name: join(root, dir, path),
  };
}

const normal = run(
  'normal',
  report([
    file('normal', 'src/a.test.ts', [
      assertion(['a'], 'one', 'passed'),
      assertion(['a'], 'two', 'passed'),
      assertion([], 'three', 'passed'),
    ]),
  ]),
);

describe('summariseReports', () => {
  it('counts a normal run as its passed tests, with no reason', () => {
    const summary = summariseReports([normal]);
    expect(summary.rows).toEqual([
      { name: 'packages/normal', passed: 3, failed: 0, skipped: 0, reasons: [] },
    ]);
    expect(formatSummary(summary).split('\n').at(-1)).toBe('3 passed, 0 failed, 0 skipped');
  });

  it('counts a run with zero tests (vitest: "No test files found") as one failure', () => {
    const zero = run('zero', report([], { success: false }));
    const summary = summariseReports([normal, zero]);
    expect(summary.rows[1]).toEqual({
      name: 'packages/zero',
      passed: 0,
      failed: 1,
      skipped: 0,
      reasons: ['ran no tests'],
    });
    expect(summary.failed).toBe(1);
    // Even a report that claims success.
    const claimed = run('zero-success', report([], { success: true }));
    expect(summariseReports([claimed]).rows[0]).toMatchObject({ failed: 1, reasons: ['ran no tests'] });
  });

  it('counts a crashed setup (no report) as one failure, with the tail of its output', () => {
    const crashed = run('crashed', undefined, {
      exitCode: 1,
      outputTail: ['Error: globalSetup failed', '  at startPostgres (global-setup.js:12:9)'],
    });
    const summary = summariseReports([normal, crashed]);
    expect(summary.rows[1]).toEqual({
      name: 'packages/crashed',
      passed: 0,
      failed: 1,
      skipped: 0,
      reasons: ['no report: the test run crashed before vitest wrote one (exit code 1)'],
    });
    const text = formatSummary(summary);
    expect(text).toContain("Last lines of packages/crashed's test output");
    expect(text).toContain('  | Error: globalSetup failed');
    expect(text.split('\n').at(-1)).toBe('3 passed, 1 failed, 0 skipped');
  });

  it('counts an unreadable report as one failure', () => {
    const torn = run('torn', '{"numTotalTests": 4, "testRes');
    expect(summariseReports([torn]).rows[0]).toMatchObject({
      failed: 1,
      reasons: [expect.stringMatching(/^unreadable report: /)],
    });
  });

  it('counts success: false with no failed test as one failure, naming the first error', () => {
    const hookFailed = run(
      'hook-failed',
      report(
        [
          file(
            'hook-failed',
            'src/db.test.ts',
            [assertion(['db'], 'reads', 'skipped')],
            'failed',
            'connect ECONNREFUSED 127.0.0.1:5432\n    at x',
          ),
        ],
        { success: false },
      ),
    );
    const silent = run(
      'silent',
      report([file('silent', 'src/s.test.ts', [assertion([], 'ok', 'passed')])], { success: false }),
    );
    const summary = summariseReports([hookFailed, silent]);
    expect(summary.rows[0]).toMatchObject({
      failed: 1,
      reasons: ['vitest reported success: false — connect ECONNREFUSED 127.0.0.1:5432'],
    });
    expect(summary.rows[1]).toMatchObject({
      passed: 1,
      failed: 1,
      reasons: ['vitest reported success: false — the report names no error'],
    });
    expect(summary.failed).toBe(2);
  });

  it('counts a run whose report says success but whose exit code does not (an unhandled error) as one failure', () => {
    const unhandled = run(
      'unhandled',
      report([file('unhandled', 'src/u.test.ts', [assertion([], 'ok', 'passed')])]),
      {
        exitCode: 1,
      },
    );
    expect(summariseReports([unhandled]).rows[0]).toMatchObject({
      passed: 1,
      failed: 1,
      reasons: ['vitest exited with code 1 though its report counts no failure'],
    });
  });

  it('counts failed tests and files that failed to load, as before', () => {
    const broken = run(
      'broken',
      report([
        file('broken', 'src/ok.test.ts', [
          assertion([], 'ok', 'passed'),
          assertion([], 'bad', 'failed', ['AssertionError']),
        ]),
        file('broken', 'src/syntax.test.ts', [], 'failed', 'SyntaxError: Unexpected token'),
      ]),
    );
    expect(summariseReports([broken]).rows[0]).toEqual({
      name: 'packages/broken',
      passed: 1,
      failed: 2,
      skipped: 0,
      reasons: ['1 file(s) failed to load'],
    });
  });

  it('lists each failed test with the first line of why, last before the totals', () => {
    const broken = run(
      'broken-listed',
      report([
        file('broken-listed', 'src/ok.test.ts', [
          assertion([], 'ok', 'passed'),
          assertion(['turns', 'SIGHUP'], 'keeps the answer', 'failed', [
            '\nAssertionError: expected 1 to be 2\n    at test.ts:3:1',
          ]),
        ]),
        file('broken-listed', 'src/syntax.test.ts', [], 'failed', 'SyntaxError: Unexpected token\n  at x'),
      ]),
    );
    const summary = summariseReports([normal, broken]);
    expect(summary.failedTests).toEqual([
      {
        name: 'packages/broken-listed',
        titles: [
          'src/ok.test.ts › turns › SIGHUP › keeps the answer: AssertionError: expected 1 to be 2',
          'src/syntax.test.ts: SyntaxError: Unexpected token',
        ],
      },
    ]);
    const lines = formatSummary(summary).split('\n');
    expect(lines.slice(-5)).toEqual([
      'Failed tests',
      '  packages/broken-listed',
      '    - src/ok.test.ts › turns › SIGHUP › keeps the answer: AssertionError: expected 1 to be 2',
      '    - src/syntax.test.ts: SyntaxError: Unexpected token',
      '4 passed, 2 failed, 0 skipped',
    ]);
  });

  it('counts skipped and todo tests and lists their titles, a wholly skipped suite once', () => {
    const skips = run(
      'skips',
      report([
        file('skips', 'src/store.test.ts', [
          assertion(['PostgreSQL store (no PostgreSQL found)', 'appends'], 'one', 'skipped'),
          assertion(['PostgreSQL store (no PostgreSQL found)', 'appends'], 'two', 'skipped'),
          assertion(['PostgreSQL store (no PostgreSQL found)'], 'three', 'skipped'),
          assertion(['memory store'], 'works', 'passed'),
          assertion(['memory store'], 'on Windows only', 'skipped'),
          assertion(['memory store'], 'compaction', 'todo'),
        ]),
      ]),
    );
    const summary = summariseReports([normal, skips]);
    expect(summary.rows[1]).toEqual({
      name: 'packages/skips',
      passed: 1,
      failed: 0,
      skipped: 5,
      reasons: [],
    });
    expect(summary.skippedTests).toEqual([
      {
        name: 'packages/skips',
        titles: [
          'src/store.test.ts › PostgreSQL store (no PostgreSQL found) (whole suite, 3 tests)',
          'src/store.test.ts › memory store › on Windows only',
          'src/store.test.ts › memory store › compaction [todo]',
        ],
      },
    ]);
    const lines = formatSummary(summary).split('\n');
    expect(lines).toContain('Skipped tests (5)');
    expect(lines.at(-1)).toBe('4 passed, 0 failed, 5 skipped');
  });

  it('leaves out packages a filtered run did not run, and counts other failed tasks', () => {
    const notRun = run('not-run', undefined, { ran: false });
    const summary = summariseReports([normal, notRun], {
      otherFailures: [{ name: '@cairn/core#build', reason: 'task failed (exit code 2)' }],
      turboExitCode: 1,
    });
    expect(summary.rows.map((row) => row.name)).toEqual(['packages/normal', '@cairn/core#build']);
    expect(summary.failed).toBe(1);
  });

  it('counts a failed turbo run with nothing else failing as one failure', () => {
    const summary = summariseReports([normal], { turboExitCode: 1 });
    expect(summary.failed).toBe(1);
    expect(summary.rows.at(-1)?.name).toBe('turbo');
  });

  it('ends with a line CI can read', () => {
    const last = formatSummary(summariseReports([normal]))
      .split('\n')
      .at(-1);
    expect(last).toMatch(/^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$/);
  });
});
