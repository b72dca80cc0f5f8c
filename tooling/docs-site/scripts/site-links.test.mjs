// The docs site's link rules (site-links.mjs) on hand-written pages, and check-links.mjs as CI runs
// it: a real child process over a site on disk, its exit status and what it prints.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { anchorsOf, checkSiteLinks, linksOf } from './site-links.mjs';

const noFiles = () => false;
const check = (pages, fileExists = noFiles) => checkSiteLinks(new Map(Object.entries(pages)), fileExists);

describe('checkSiteLinks', () => {
  it('accepts links to pages, to anchors in them and in the same page', () => {
    const result = check({
      'index.html': '<a href="documents/guide.html#set-up">guide</a><a href="#top">top</a><h1 id="top">',
      'documents/guide.html':
        '<h2 id="set-up">Set up</h2><a href="../index.html">home</a><a href="./">dir</a>',
      'documents/index.html': '<p>',
    });
    expect(result.broken).toEqual([]);
  });

  it('reports a missing page, a missing anchor and a link out of the site', () => {
    const result = check({
      'index.html': '<a href="nope.html">a</a><a href="other.html#gone">b</a><a href="#missing">c</a>',
      'other.html': '<h2 id="here">',
      'deep/page.html': '<a href="../../outside.html">d</a><a href="/abs.html">e</a>',
    });
    expect(result.broken.map(({ page, href }) => `${page} → ${href}`)).toEqual([
      'index.html → nope.html',
      'index.html → other.html#gone',
      'index.html → #missing',
      'deep/page.html → ../../outside.html',
      'deep/page.html → /abs.html',
    ]);
  });

  it('asks fileExists about targets that are not pages (media, assets)', () => {
    const asked = [];
    const result = check(
      { 'documents/a.html': '<img src="../media/diagram.svg"><link href="../assets/style.css">' },
      (path) => {
        asked.push(path);
        return path === 'media/diagram.svg';
      },
    );
    expect(asked).toEqual(['media/diagram.svg', 'assets/style.css']);
    expect(result.broken).toEqual([
      { page: 'documents/a.html', href: '../assets/style.css', reason: 'no such file' },
    ]);
  });

  it('reports a link to a Markdown file, which the site would show as raw text', () => {
    const result = check({ 'documents/a.html': '<a href="../media/notes.md">notes</a>' }, () => true);
    expect(result.broken).toEqual([
      {
        page: 'documents/a.html',
        href: '../media/notes.md',
        reason: 'a Markdown file the site does not render',
      },
    ]);
  });

  it('lists external links once each, sorted, and never checks them', () => {
    const result = check({
      'a.html':
        '<a href="https://b.example/x">1</a><a href="mailto:x@y.z">2</a><a href="https://a.example">3</a>',
      'b.html': '<a href="https://b.example/x">4</a><a href="javascript:void(0)">5</a>',
    });
    expect(result).toEqual({
      broken: [],
      external: ['https://a.example', 'https://b.example/x', 'mailto:x@y.z'],
    });
  });

  it('decodes entities and percent-escapes before resolving', () => {
    const result = check({
      'a.html': '<a href="b%20c.html#x&amp;y">1</a>',
      'b c.html': '<h2 id="x&amp;y">',
    });
    expect(result.broken).toEqual([]);
  });
});

describe('linksOf and anchorsOf', () => {
  it('read href and src in either quote style, and id and name', () => {
    expect(linksOf(`<a class="x" href='one.html'></a><script src="two.js"></script>`)).toEqual([
      'one.html',
      'two.js',
    ]);
    expect([...anchorsOf(`<h2 id="a"></h2><a name='b'></a>`)]).toEqual(['a', 'b']);
  });
});

describe('check-links.mjs', () => {
  const SCRIPT = new URL('./check-links.mjs', import.meta.url).pathname;
  const root = mkdtempSync(join(tmpdir(), 'cairn-docs-site-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  function site(name, files) {
    const dir = join(root, name);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  }
  function run(dir) {
    try {
      return {
        status: 0,
        output: execFileSync(process.execPath, [SCRIPT, dir], { encoding: 'utf8', stdio: 'pipe' }),
      };
    } catch (error) {
      return { status: error.status, output: `${error.stdout}${error.stderr}` };
    }
  }

  it('passes a site whose links resolve and lists its external links', () => {
    const dir = site('good', {
      'index.html': '<a href="docs/a.html#b">a</a><a href="https://example.com/">x</a>',
      'docs/a.html': '<h2 id="b"></h2><img src="../media/pic.png">',
      'media/pic.png': 'png',
    });
    const { status, output } = run(dir);
    expect(status).toBe(0);
    expect(output).toContain('external links (listed, not fetched): 1\n  https://example.com/');
    expect(output).toContain('2 pages, 0 broken internal link(s)');
  });

  it('fails a site with a broken link and names the page and the link', () => {
    const dir = site('bad', { 'index.html': '<a href="docs/gone.html">a</a>' });
    const { status, output } = run(dir);
    expect(status).toBe(1);
    expect(output).toContain('BROKEN index.html: docs/gone.html (no such file)');
  });

  it('fails when there is no site to check', () => {
    const { status, output } = run(join(root, 'never-built'));
    expect(status).toBe(1);
    expect(output).toContain('run `pnpm docs:build` first');
  });
});
