import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// `pnpm check:sleeps` (tooling/scripts/check-test-sleeps.mjs) on a throwaway repository layout.
const SCRIPT = new URL('../scripts/check-test-sleeps.mjs', import.meta.url).pathname;
// Spelled in pieces so that this file itself passes the check.
const SET_TIMEOUT = ['set', 'Timeout'].join('');
const DELAY = ['del', 'ay'].join('');
const SLEEP = ['sle', 'ep'].join('');

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function check(files: Record<string, string>): { status: number; output: string } {
  const root = mkdtempSync(join(tmpdir(), 'cairn-check-sleeps-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  try {
    return { status: 0, output: execFileSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' }) };
  } catch (error) {
    const failed = error as { status: number; stdout: string };
    return { status: failed.status, output: failed.stdout };
  }
}

describe('check-test-sleeps', () => {
  it('flags fixed-delay waits, under any alias, and timers that schedule an action', () => {
    const { status, output } = check({
      'packages/a/src/a.test.ts': [
        `import { ${SET_TIMEOUT} as pause } from 'node:timers/promises';`,
        `await new Promise((resolve) => ${SET_TIMEOUT}(resolve, 50));`,
        'await pause(20);',
        `${SET_TIMEOUT}(() => controller.abort(), 10);`,
        `// a comment naming ${SLEEP}(10) is not a wait`,
      ].join('\n'),
      'apps/b/test/support.ts': `export const settle = () => ${DELAY}(5);\n`,
    });
    expect(status).toBe(1);
    expect(output).toContain(
      `packages/a/src/a.test.ts:2: await new Promise((resolve) => ${SET_TIMEOUT}(resolve, 50));`,
    );
    expect(output).toContain('packages/a/src/a.test.ts:3: await pause(20);');
    expect(output).toContain(`packages/a/src/a.test.ts:4: ${SET_TIMEOUT}(() => controller.abort(), 10);`);
    expect(output).toContain(`apps/b/test/support.ts:1: export const settle = () => ${DELAY}(5);`);
    expect(output).not.toContain(':5:');
  });

  it('passes simulatedDelay, gates, expect.poll, fake timers and files that are not tests', () => {
    const { status, output } = check({
      'packages/a/src/a.test.ts': [
        "import { createGate, simulatedDelay } from '@cairn/testing';",
        "it('waits on what happens', async () => {",
        '  await simulatedDelay(50, signal);',
        '  await gate.promise;',
        '  await expect.poll(() => seen).toEqual([1]);',
        '});',
        "it('runs on a fake clock', async () => {",
        '  vi.useFakeTimers();',
        `  ${SET_TIMEOUT}(() => done(), 60_000);`,
        '  await vi.advanceTimersByTimeAsync(60_000);',
        '});',
      ].join('\n'),
      'packages/a/src/a.ts': `await new Promise((resolve) => ${SET_TIMEOUT}(resolve, 50));\n`,
    });
    expect({ status, output }).toEqual({ status: 0, output: 'no fixed-delay sleeps in 1 test files\n' });
  });
});
