import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { runReadmeExample } from '@cairn/vitest-config/readme-example';
import { describe, expect, it } from 'vitest';

const README = new URL('../README.md', import.meta.url);
const run = promisify(execFile);

describe('README', () => {
  it('runs the example and prints what it says', async () => {
    const { stdout, printed } = await runReadmeExample(README);
    expect(printed).toBeDefined();
    expect(stdout).toBe(printed);
  });

  it('runs the fallback model example and prints what it says', async () => {
    const readme = await readFile(README, 'utf8');
    const section = readme.slice(
      readme.indexOf('\n## Fallback models\n'),
      readme.indexOf('\n## What it does\n'),
    );
    const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
    const printed = /It prints:\n\n```text\n([\s\S]*?)```/.exec(section)?.[1];
    expect(code).toBeDefined();
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', code as string], {
      cwd: fileURLToPath(new URL('.', README)),
    });
    expect(stdout).toBe(printed);
  });
});
