// Every package README carries one runnable example (a ```js block) and, after "It prints:", the
// output it gives. Package tests run it in a separate Node process, importing the built package
// by name as a user would, so the README cannot rot.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The README's first ```js block and the ```text block after "It prints:" (if any). */
export async function readReadmeExample(readmeUrl) {
  const readme = await readFile(readmeUrl, 'utf8');
  const code = /```js\n([\s\S]*?)```/.exec(readme)?.[1];
  if (code === undefined) throw new Error(`${fileURLToPath(readmeUrl)} has no \`\`\`js example`);
  const printed = /It prints:\n\n```text\n([\s\S]*?)```/.exec(readme)?.[1];
  return { code, printed };
}

/** Runs the example with the package directory as working directory; returns its stdout and the documented output. */
export async function runReadmeExample(readmeUrl, options = {}) {
  const { code, printed } = await readReadmeExample(readmeUrl);
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', code], {
    cwd: dirname(fileURLToPath(readmeUrl)),
    env: { ...process.env, ...options.env },
  });
  return { stdout, printed };
}
