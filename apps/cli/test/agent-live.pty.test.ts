import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliEnv, tempDir } from './cli-process.js';
import { usePtySessions } from './pty-session.js';

const openTerminal = usePtySessions();

// The real Claude Code capture of `sleep 30` (recorded in `@cairn/agent-cli` fixtures/real).
const SLEEP = fileURLToPath(
  new URL('../../../packages/agent-cli/fixtures/real/claude-code/sigint-sleep.jsonl', import.meta.url),
);

/**
 * A stand-in for `claude` that prints the capture up to the Bash call, waits (as Claude Code does
 * while `sleep 30` runs) until `release` exists, then prints the rest.
 */
function fakeClaude(dir: string, release: string): string {
  const lines = readFileSync(SLEEP, 'utf8').split('\n').filter(Boolean);
  const split = lines.findIndex((line) => line.includes('"tool_use"')) + 1;
  const path = join(dir, 'claude');
  writeFileSync(
    path,
    `#!${process.execPath}
const fs = require('node:fs');
const before = ${JSON.stringify(lines.slice(0, split))};
const after = ${JSON.stringify(lines.slice(split))};
process.stdout.write(before.join('\\n') + '\\n');
const watcher = fs.watch(${JSON.stringify(dir)}, () => {
  if (!fs.existsSync(${JSON.stringify(release)})) return;
  watcher.close();
  process.stdout.write(after.join('\\n') + '\\n');
});
`,
  );
  chmodSync(path, 0o755);
  return path;
}

describe('cairn agent in a real terminal', () => {
  it('shows the call running while the tool runs, then replaces that line with the finished call', async () => {
    const dir = tempDir('pty-agent-live');
    const release = join(dir, 'release');
    const claude = fakeClaude(dir, release);
    const term = openTerminal(dir);
    term.start(['agent', 'claude', 'Wait.', '--command', claude], cliEnv(dir));

    const running = await term.waitFor((screen) => screen.includes('Running Bash'), 'the running call');
    expect(running).toContain('Waiting a while.\n▸ Running Bash: sleep 30');
    expect(existsSync(release)).toBe(false);

    writeFileSync(release, '');
    const done = await term.waitFor((screen) => screen.includes('sleep 30` failed'), 'the finished call');
    expect(done).not.toContain('Running Bash');
    // The finished call sits where the running line was: under the text (and the interruption's status
    // line, which Claude Code writes before the call's result reaches the display).
    expect(done).toMatch(
      /Waiting a while\.\n(⏹ \[Request interrupted by user for tool use\]\n)?✗ Command `sleep 30` failed/,
    );
    term.stop();
  }, 90_000);
});
