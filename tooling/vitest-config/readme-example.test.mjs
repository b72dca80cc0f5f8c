import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readmeSection, readReadmeExample, runReadmeExample } from './readme-example.js';

const README = [
  '# pkg',
  '',
  '```js',
  "console.log('first');",
  '```',
  '',
  'It prints:',
  '',
  '```text',
  'first',
  '```',
  '',
  '## Second',
  '',
  '```sh',
  '# not a heading',
  '```',
  '',
  '### Detail',
  '',
  '```js',
  "console.log('second');",
  '```',
  '',
  'It prints:',
  '',
  '```text',
  'second',
  '```',
  '',
  '## Third',
  '',
  'No example here.',
  '',
  '```js',
  "console.log('third');",
  '```',
  '',
].join('\n');

async function readmeUrl(text) {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-readme-example-'));
  const path = join(dir, 'README.md');
  await writeFile(path, text);
  return pathToFileURL(path);
}

describe('readmeSection', () => {
  it('runs from the heading to the next heading of the same or a higher level, skipping fenced lines', () => {
    const section = readmeSection(README, 'Second');
    expect(section).toContain('### Detail');
    expect(section).toContain("console.log('second');");
    expect(section).not.toContain('third');
  });

  it('is undefined for a heading the README does not have', () => {
    expect(readmeSection(README, 'Missing')).toBeUndefined();
  });
});

describe('readReadmeExample', () => {
  it('takes the first example of the README and its "It prints:" block', async () => {
    expect(await readReadmeExample(await readmeUrl(README))).toEqual({
      code: "console.log('first');\n",
      printed: 'first\n',
    });
  });

  it('takes the first example of a section and the "It prints:" block after it', async () => {
    expect(await readReadmeExample(await readmeUrl(README), { section: 'Second' })).toEqual({
      code: "console.log('second');\n",
      printed: 'second\n',
    });
  });

  it('never takes an "It prints:" block from another section', async () => {
    expect(await readReadmeExample(await readmeUrl(README), { section: 'Third' })).toEqual({
      code: "console.log('third');\n",
      printed: undefined,
    });
  });

  it('names the README and the section it cannot find', async () => {
    const url = await readmeUrl(README);
    await expect(readReadmeExample(url, { section: 'Missing' })).rejects.toThrow(/has no section "Missing"/);
    await expect(readReadmeExample(url, { section: 'Detail' })).resolves.toMatchObject({
      printed: 'second\n',
    });
    await expect(readReadmeExample(await readmeUrl('# none\n'))).rejects.toThrow(/has no ```js example/);
  });
});

describe('runReadmeExample', () => {
  it("runs a section's example and returns what it printed beside what the README says", async () => {
    expect(await runReadmeExample(await readmeUrl(README), { section: 'Second' })).toEqual({
      stdout: 'second\n',
      printed: 'second\n',
    });
  });
});
