// Refuses fixed-delay waits in tests: a test that sleeps N ms hoping something else happened by then
// flakes on a loaded machine and slows every run. Tests wait on a gate they open (`createGate` from
// @cairn/testing), an event the code emits, or `expect.poll` / `vi.waitFor`; a delay that is itself
// the behaviour under test (a slow model, a slow tool, a slow reader) is `simulatedDelay(ms, signal?)`.
//
// Scanned: every *.test.{ts,mts,js,mjs}, *.test-*.ts, test-support.ts, file under a test/ or __tests__/ folder, and the
// two conformance kits that run as other packages' tests (packages/storage/src/testkit,
// packages/testing/src/conformance), across packages/*, apps/* and tooling/*.
// Flagged, on a line that is not a comment:
// - `setTimeout(` and `setInterval(`: a wait (`new Promise((r) => setTimeout(r, N))`), and also a timer
//   that schedules an action (`setTimeout(() => controller.abort(), N)`) — that bets on timing too;
// - a call of what `setTimeout` / `scheduler` from node:timers/promises is imported as, under any alias;
// - `sleep(` and `delay(` called as plain functions (a home-made sleep under its usual names).
// Not flagged: a timer with an empty callback (`setInterval(() => {}, N)` only keeps a process alive —
// a hanging child, not a wait); fake timers (`vi.advanceTimersByTime…`), and timer calls inside a test (`it`/`test`
// block) that turns on `vi.useFakeTimers` — there the clock is the test's own, nothing waits.
//
// Run: node tooling/scripts/check-test-sleeps.mjs [root]; prints `file:line: code` per hit and exits 1,
// or "no fixed-delay sleeps in N test files" and exits 0.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = process.argv[2] ?? fileURLToPath(new URL('../..', import.meta.url));
const WORKSPACE_DIRS = ['packages', 'apps', 'tooling'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.turbo', '.test-results', 'coverage', '.git']);
const KIT_DIRS = ['packages/storage/src/testkit/', 'packages/testing/src/conformance/'];
const SOURCE = /\.(ts|mts|js|mjs)$/;

function isTestFile(path) {
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (/\.test\.(ts|mts|js|mjs)$/.test(name) || /\.test-[\w.-]+\.(ts|mts)$/.test(name)) return true;
  if (/(^|[.-])test-support\.(ts|mts)$/.test(name)) return true;
  if (!SOURCE.test(name) || name.endsWith('.d.ts')) return false;
  return /(^|\/)(test|__tests__)\//.test(path) || KIT_DIRS.some((dir) => path.startsWith(dir));
}

function* walk(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (SKIPPED_DIRS.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}

/** The names node:timers/promises' setTimeout and scheduler are imported as in `text`. */
function timersPromisesNames(text) {
  const names = [];
  const imports = /import\s*\{([^}]*)\}\s*from\s*['"](?:node:)?timers\/promises['"]/g;
  for (const [, list] of text.matchAll(imports)) {
    for (const part of list.split(',')) {
      const [imported, local = imported] = part.trim().split(/\s+as\s+/);
      if (imported === 'setTimeout' || imported === 'setInterval') names.push(`${local}\\(`);
      if (imported === 'scheduler') names.push(`${local}\\.wait\\(`);
    }
  }
  const namespaces = /import\s*(?:\*\s*as\s+)?(\w+)\s*from\s*['"](?:node:)?timers\/promises['"]/g;
  for (const [, local] of text.matchAll(namespaces))
    names.push(`${local}\\.(?:setTimeout|setInterval|scheduler\\.wait)\\(`);
  return names;
}

const escapeDollars = (name) => name.replace(/\$/g, '\\$');
const isComment = (line) => /^\s*(\/\/|\/?\*)/.test(line);
const KEEP_ALIVE = /\bset(?:Timeout|Interval)\(\s*\(\)\s*=>\s*\{\s*\}\s*,[^)]*\)/g;
const TEST_BLOCK = /^\s*(it|test)(\.\w+)*\s*\(/;

/** `file:line: code` for each fixed-delay wait in `text`. */
export function findSleeps(file, text) {
  const lines = text.split('\n');
  const pattern = new RegExp(
    [
      '(?<![\\w.$])(?:setTimeout|setInterval)\\(',
      '(?<![\\w.$])(?:sleep|delay)\\(',
      ...timersPromisesNames(text).map((name) => `(?<![\\w.$])${escapeDollars(name)}`),
    ].join('|'),
  );
  const fakeClockLines = new Set();
  for (let start = 0; start < lines.length; start++) {
    if (!TEST_BLOCK.test(lines[start])) continue;
    let end = start + 1;
    while (end < lines.length && !TEST_BLOCK.test(lines[end])) end++;
    if (lines.slice(start, end).some((line) => line.includes('vi.useFakeTimers('))) {
      for (let index = start; index < end; index++) fakeClockLines.add(index);
    }
  }
  const hits = [];
  lines.forEach((line, index) => {
    if (isComment(line) || fakeClockLines.has(index) || /^\s*import\b/.test(line)) return;
    if (/^\s*(export\s+)?(async\s+)?function\s+(sleep|delay)\b/.test(line)) return;
    if (pattern.test(line.replace(KEEP_ALIVE, ''))) hits.push(`${file}:${index + 1}: ${line.trim()}`);
  });
  return hits;
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const hits = [];
  let scanned = 0;
  for (const dir of WORKSPACE_DIRS) {
    for (const path of walk(join(ROOT, dir))) {
      const file = relative(ROOT, path).split(sep).join('/');
      if (!isTestFile(file)) continue;
      scanned++;
      hits.push(...findSleeps(file, readFileSync(path, 'utf8')));
    }
  }
  if (hits.length > 0) {
    console.log(hits.join('\n'));
    console.log(
      `${hits.length} fixed-delay sleep(s) in tests: wait on a gate (createGate), an event or expect.poll; a delay that is the behaviour under test is simulatedDelay (both from @cairn/testing)`,
    );
    process.exit(1);
  }
  console.log(`no fixed-delay sleeps in ${scanned} test files`);
}
