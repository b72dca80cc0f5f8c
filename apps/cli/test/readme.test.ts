import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { CAIRN_BIN, cliEnv, ensureCliBuilt, tempDir } from './cli-process.js';

beforeAll(ensureCliBuilt, 120_000);

describe('README', () => {
  it('runs the "Try it" commands as written, with `cairn` the built binary', async () => {
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    const script = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] as string;
    expect(script).toContain('cairn demo');
    const home = tempDir('readme');
    const { stdout, stderr } = await promisify(execFile)(
      'bash',
      ['-euo', 'pipefail', '-c', `cairn() { "${process.execPath}" "${CAIRN_BIN}" "$@"; }\n${script}`],
      { env: cliEnv(home), cwd: home },
    );
    expect(stdout).toMatch(/✓ Updated src\/greet\.js/);
    expect(stdout).toMatch(/^chat-\S+ /m);
    expect(stdout).toContain('You asked “What did you change?”');
    expect(stdout).toContain('this session: 0 turns');
    expect(stderr).toContain('offline demo');
  }, 60_000);
});
