// The whole pipeline on a tiny project: real TypeDoc renders a README and a guide the way
// typedoc.json renders Cairn's, then check-links.mjs runs over its output as `docs:build` runs it.
// Proves the check sees what TypeDoc makes of Markdown links: a heading anchor, a guide link, and a
// link to a Markdown file or heading that is not there.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const TYPEDOC = join(here, '../node_modules/typedoc/bin/typedoc');
const CHECK = join(here, 'check-links.mjs');
const root = mkdtempSync(join(tmpdir(), 'cairn-typedoc-site-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function project(name, readme) {
  const dir = join(root, name);
  const files = {
    'package.json': JSON.stringify({ name, version: '0.0.0', type: 'module' }),
    'tsconfig.json': JSON.stringify({
      compilerOptions: { strict: true, module: 'NodeNext' },
      include: ['src'],
    }),
    'src/index.ts':
      '/** Adds two numbers. */\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n',
    'README.md': readme,
    'docs/guide.md': '# Guide\n\n## Set up\n\nSee [add](../README.md#usage).\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function buildAndCheck(dir) {
  const run = (args) => execFileSync(process.execPath, args, { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
  run([TYPEDOC, 'src/index.ts', '--readme', 'README.md', '--projectDocuments', 'docs/*.md', '--out', 'site']);
  try {
    return { status: 0, output: run([CHECK, 'site']) };
  } catch (error) {
    return { status: error.status, output: `${error.stdout}${error.stderr}` };
  }
}

describe('TypeDoc output through the link check', () => {
  it('passes links to a guide, its headings and back to the home page', () => {
    const dir = project('good', '# Good\n\n## Usage\n\nRead [the guide](docs/guide.md#set-up).\n');
    const { status, output } = buildAndCheck(dir);
    expect(output).toContain('0 broken internal link(s)');
    expect(status).toBe(0);
  }, 120_000);

  it('fails on a heading the guide does not have and on a Markdown file that is not there', () => {
    const dir = project('bad', '# Bad\n\n## Usage\n\n[a](docs/guide.md#tear-down) [b](docs/missing.md)\n');
    const { status, output } = buildAndCheck(dir);
    expect(status).toBe(1);
    expect(output).toMatch(/BROKEN index\.html: documents\/guide\.html#tear-down \(no #tear-down in/);
    expect(output).toMatch(/BROKEN index\.html: docs\/missing\.md/);
  }, 120_000);
});
