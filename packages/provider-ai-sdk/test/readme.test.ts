import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { runReadmeExample } from '@cairn/vitest-config/readme-example';
import { describe, expect, it } from 'vitest';

const README = new URL('../README.md', import.meta.url);

describe('README', () => {
  it('runs the example and prints what it says', async () => {
    const { stdout, printed } = await runReadmeExample(README);
    expect(printed).toBeDefined();
    expect(stdout).toBe(printed);
  });

  // The second example imports a provider package (a devDependency here), so check:packages,
  // which runs only the first, cannot: it is run here.
  it('runs the example with a provider package and prints what it says', async () => {
    const readme = await readFile(README, 'utf8');
    const section = readme.slice(readme.indexOf('### With a provider package'));
    const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
    const printed = /It prints:\n\n```text\n([\s\S]*?)```/.exec(section)?.[1];
    expect(code).toBeDefined();
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', code ?? ''],
      {
        cwd: fileURLToPath(new URL('..', import.meta.url)),
      },
    );
    expect(stdout).toBe(printed);
  });
});
