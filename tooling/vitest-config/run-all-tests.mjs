#!/usr/bin/env node
// Runs every workspace package's tests through turbo, then sums the vitest JSON reports into one
// plain last line, `N passed, N failed`. A package that should have produced a report and did not
// (crash, syntax error, missing config) counts as one failure, so a broken package cannot look green.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const REPORT = '.test-results/vitest.json';

function workspacePackageDirs() {
  const yaml = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const globs = [...yaml.matchAll(/^\s*-\s*['"]?([\w.-]+)\/\*['"]?\s*$/gm)].map((m) => m[1]);
  return globs.flatMap((dir) => {
    const abs = join(root, dir);
    if (!existsSync(abs)) return [];
    return readdirSync(abs, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(abs, entry.name, 'package.json')))
      .map((entry) => join(abs, entry.name));
  });
}

const testedDirs = workspacePackageDirs().filter((dir) => {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  return typeof pkg.scripts?.test === 'string';
});
for (const dir of testedDirs) rmSync(join(dir, '.test-results'), { recursive: true, force: true });

const turbo = spawnSync('turbo', ['run', 'test', '--continue', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
const filtered = process.argv.slice(2).some((arg) => arg.startsWith('--filter'));

let passed = 0;
let failed = 0;
const rows = [];
for (const dir of testedDirs) {
  const name = relative(root, dir);
  const reportPath = join(dir, REPORT);
  if (!existsSync(reportPath)) {
    if (filtered) continue;
    failed += 1;
    rows.push([name, 0, 1, 'no report: the test run crashed before vitest could write one']);
    continue;
  }
  const report = JSON.parse(readFileSync(reportPath, 'utf8'));
  // A test file that fails to load has no assertions but a failed suite: count it once.
  const brokenFiles = report.testResults.filter(
    (file) => file.status === 'failed' && file.assertionResults.length === 0,
  ).length;
  const pkgFailed = report.numFailedTests + brokenFiles;
  passed += report.numPassedTests;
  failed += pkgFailed;
  rows.push([
    name,
    report.numPassedTests,
    pkgFailed,
    brokenFiles ? `${brokenFiles} file(s) failed to load` : '',
  ]);
}

console.log('\nTest totals by package');
for (const [name, p, f, note] of rows) {
  console.log(
    `  ${name.padEnd(32)} ${String(p).padStart(5)} passed ${String(f).padStart(4)} failed  ${note}`,
  );
}
if (turbo.status !== 0 && failed === 0) {
  // turbo failed (e.g. a build dependency broke) without any test failing: still a failure.
  failed += 1;
  console.log('  turbo exited with a failure outside the test reports');
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && turbo.status === 0 ? 0 : 1);
