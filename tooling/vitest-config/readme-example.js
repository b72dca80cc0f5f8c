// Every package README carries one runnable example (a ```js block) and, after "It prints:", the
// output it gives. Package tests run it in a separate Node process, importing the built package
// by name as a user would, so the README cannot rot. A README may carry more examples, one per
// section: `section` names the heading whose first example is meant.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The text under the heading titled `title` (any level), up to the next heading of the same or a
 * higher level. Fenced blocks are skipped when looking for headings: a `# comment` in a shell
 * sample is not one.
 */
export function readmeSection(readme, title) {
  const lines = readme.split('\n');
  let inFence = false;
  let start;
  let level;
  for (const [index, line] of lines.entries()) {
    if (line.startsWith('```')) inFence = !inFence;
    if (inFence) continue;
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    const depth = heading[1].length;
    if (start === undefined) {
      if (heading[2] === title) {
        start = index + 1;
        level = depth;
      }
    } else if (depth <= level) {
      return lines.slice(start, index).join('\n');
    }
  }
  return start === undefined ? undefined : lines.slice(start).join('\n');
}

/**
 * The first ```js block (of the README, or of its section titled `options.section`) and the
 * ```text block after the "It prints:" that follows it (if any).
 */
export async function readReadmeExample(readmeUrl, options = {}) {
  const readme = await readFile(readmeUrl, 'utf8');
  const where = `${fileURLToPath(readmeUrl)}${options.section === undefined ? '' : ` (section "${options.section}")`}`;
  const text = options.section === undefined ? readme : readmeSection(readme, options.section);
  if (text === undefined) throw new Error(`${fileURLToPath(readmeUrl)} has no section "${options.section}"`);
  const example = /```js\n([\s\S]*?)```/.exec(text);
  if (example === null) throw new Error(`${where} has no \`\`\`js example`);
  const after = text.slice(example.index + example[0].length);
  const printed = /It prints:\n\n```text\n([\s\S]*?)```/.exec(after)?.[1];
  return { code: example[1], printed };
}

/** Runs the example with the package directory as working directory; returns its stdout and the documented output. */
export async function runReadmeExample(readmeUrl, options = {}) {
  const { code, printed } = await readReadmeExample(readmeUrl, options);
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', code], {
    cwd: dirname(fileURLToPath(readmeUrl)),
    env: { ...process.env, ...options.env },
  });
  return { stdout, printed };
}
