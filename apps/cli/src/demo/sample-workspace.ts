import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { cliFailure } from '../cli-error.js';

// The demo script's tool calls quote these exact strings, so the edit matches the file it fixes.
/** The file the tour reads and fixes. */
export const SAMPLE_SOURCE_PATH = 'src/greet.js';
/** The buggy line in it: a typo that makes every call throw a ReferenceError. */
export const SAMPLE_BUGGY_LINE = "  return 'Hello, ' + nmae + '!';";
/** The line the tour's edit puts in its place. */
export const SAMPLE_FIXED_LINE = "  return 'Hello, ' + name + '!';";
/** The command the tour runs: it fails on purpose, on a second bug the tour leaves for the user. */
export const SAMPLE_TEST_COMMAND = 'node --test test/greet.test.js';
/** What the second bug makes `shout('Ada')` return, as the failing test prints it. */
export const SAMPLE_SECOND_BUG_SYMPTOM = "'hello, ada!'";
/** Marks a directory as a sample workspace, which may be reset without asking. */
export const SAMPLE_MARKER_FILE = '.cairn-demo-sample';

const SAMPLE_FILES: Record<string, string> = {
  [SAMPLE_MARKER_FILE]:
    'This directory is the sample project of the Cairn offline demo. Starting the demo here again resets every file in it.\n',
  'package.json': `${JSON.stringify(
    {
      name: 'cairn-demo-sample',
      version: '1.0.0',
      private: true,
      description: 'A tiny project for the Cairn offline demo: two bugs, one test file, no dependencies',
      type: 'module',
      scripts: { test: SAMPLE_TEST_COMMAND },
    },
    null,
    2,
  )}\n`,
  'README.md': `# Cairn demo sample

A tiny project the Cairn offline demo works on. It has no dependencies; \`npm test\` runs
\`${SAMPLE_TEST_COMMAND}\`.

\`src/greet.js\` has two bugs. The demo fixes the first one and leaves the second for you.
`,
  [SAMPLE_SOURCE_PATH]: `/** greet('Ada') → 'Hello, Ada!' */
export function greet(name) {
${SAMPLE_BUGGY_LINE}
}

/** shout('Ada') → 'HELLO, ADA!' */
export function shout(name) {
  return greet(name).toLowerCase();
}
`,
  'test/greet.test.js': `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { greet, shout } from '../src/greet.js';

test('greet says hello', () => {
  assert.equal(greet('Ada'), 'Hello, Ada!');
});

test('shout says it loudly', () => {
  assert.equal(shout('Ada'), 'HELLO, ADA!');
});
`,
};

/** The directory's entries, or `undefined` when it does not exist yet. */
async function entriesOf(dir: string): Promise<string[] | undefined> {
  const stats = await stat(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (stats === undefined) return undefined;
  if (!stats.isDirectory()) {
    throw cliFailure('INVALID_ARGUMENT', `${dir} is not a directory`, 'choose a new or empty directory');
  }
  return readdir(dir);
}

/**
 * Writes the demo's sample project into `dir`: a tiny dependency-free Node project whose
 * `src/greet.js` has two bugs. Refuses a non-empty directory unless it is an earlier sample,
 * which it resets, so the tour always starts from the same files.
 */
export async function createSampleWorkspace(dir: string): Promise<void> {
  const entries = await entriesOf(dir);
  if (entries !== undefined && entries.length > 0) {
    if (!entries.includes(SAMPLE_MARKER_FILE)) {
      throw cliFailure(
        'INVALID_ARGUMENT',
        `${dir} is not empty, and not an earlier demo sample`,
        'choose a new or empty directory for the sample project',
      );
    }
    await Promise.all(entries.map((entry) => rm(join(dir, entry), { recursive: true, force: true })));
  }
  for (const [path, content] of Object.entries(SAMPLE_FILES)) {
    const file = join(dir, path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, content);
  }
}
