import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { CairnError } from '@cairn/core';
import { simulatedDelay } from '@cairn/testing';
import { describe, expect, it } from 'vitest';
import { createGrepTool } from './grep-tool.js';
import { callTool, failureOf, useTempWorkspace, writeFiles } from './test-support.js';

const dirs = useTempWorkspace();
const grep = (args: object, options = {}) => callTool(createGrepTool({ root: dirs.root, ...options }), args);

describe('grep', () => {
  it('prints path:line: text under a header counting the matches', async () => {
    await writeFiles(dirs.root, {
      'src/a.ts': 'const foo = 1;\nconst bar = 2;\nfoo(bar);\n',
      'src/b.ts': 'nothing here\n',
      'README.md': 'use foo\r\n',
    });
    expect(await grep({ pattern: 'foo' })).toBe(
      'Found 3 matches in 2 files\nREADME.md:1: use foo\nsrc/a.ts:1: const foo = 1;\nsrc/a.ts:3: foo(bar);',
    );
    expect(await grep({ pattern: '^const \\w+ = 2' })).toBe(
      'Found 1 match in 1 file\nsrc/a.ts:2: const bar = 2;',
    );
  });

  it('narrows by path, by a file glob and matches case-insensitively on request', async () => {
    await writeFiles(dirs.root, {
      'src/a.ts': 'Foo\n',
      'src/deep/b.ts': 'foo\n',
      'src/c.md': 'foo\n',
      'd.ts': 'foo\n',
    });
    expect(await grep({ pattern: 'foo', path: 'src', glob: '*.ts' })).toBe(
      'Found 1 match in 1 file\nsrc/deep/b.ts:1: foo',
    );
    expect(await grep({ pattern: 'foo', glob: '*.ts', ignore_case: true })).toBe(
      'Found 3 matches in 3 files\nd.ts:1: foo\nsrc/a.ts:1: Foo\nsrc/deep/b.ts:1: foo',
    );
    expect(await grep({ pattern: 'foo', glob: 'src/*.md' })).toBe('Found 1 match in 1 file\nsrc/c.md:1: foo');
    expect(await grep({ pattern: 'foo', path: 'src/c.md' })).toBe('Found 1 match in 1 file\nsrc/c.md:1: foo');
  });

  it('skips binary files, large files, node_modules and .git', async () => {
    await writeFiles(dirs.root, {
      'bin.dat': new Uint8Array([...Buffer.from('foo'), 0]),
      'big.txt': `foo\n${'x'.repeat(200)}`,
      'node_modules/p/i.js': 'foo',
      '.git/config': 'foo',
      'ok.txt': 'foo',
    });
    expect(await grep({ pattern: 'foo' }, { maxGrepFileBytes: 100 })).toBe(
      'Found 1 match in 1 file\n(1 file over 100 bytes not searched)\nok.txt:1: foo',
    );
  });

  it('caps the matches and says there are more', async () => {
    await writeFiles(dirs.root, { 'a.txt': 'x\nx\nx\n', 'b.txt': 'x\n' });
    expect(await grep({ pattern: 'x' }, { maxGrepMatches: 2 })).toBe(
      'Found 2 matches in 1 file (stopped at 2; there are more: narrow the pattern, path or glob)\na.txt:1: x\na.txt:2: x',
    );
  });

  it('says when nothing matched', async () => {
    await writeFiles(dirs.root, { 'a.txt': 'abc' });
    expect(await grep({ pattern: 'zzz' })).toBe('No matches found for "zzz" in .');
  });

  it('rejects an invalid regular expression with the reason', async () => {
    const error = await failureOf(grep({ pattern: 'foo(' }), 'TOOL_INVALID_INPUT');
    expect(error.message).toMatch(/not a valid regular expression: .*Unterminated group/);
  });

  it('never reads files outside the workspace', async () => {
    await writeFiles(dirs.outside, { 'secret.txt': 'foo', 'sub/deep.txt': 'foo' });
    await writeFiles(dirs.root, { 'mine.txt': 'foo' });
    await symlink(dirs.outside, join(dirs.root, 'escape'));
    await symlink(join(dirs.outside, 'secret.txt'), join(dirs.root, 'linked.txt'));
    expect(await grep({ pattern: 'foo' })).toBe('Found 1 match in 1 file\nmine.txt:1: foo');
    for (const args of [
      { pattern: 'foo', path: 'escape' },
      { pattern: 'foo', path: 'linked.txt' },
      { pattern: 'foo', path: '..' },
      { pattern: 'foo', path: join(dirs.outside, 'secret.txt') },
      { pattern: 'foo', glob: '../**' },
    ]) {
      await failureOf(grep(args), 'TOOL_DENIED');
    }
  });

  it('never reads through a symlinked directory that a glob names, nested or from path', async () => {
    await writeFiles(dirs.outside, { 'secret.txt': 'foo', 'sub/deep.txt': 'foo' });
    await writeFiles(dirs.root, { 'a/mine.txt': 'foo' });
    await symlink(dirs.outside, join(dirs.root, 'linkdir'));
    await symlink(dirs.outside, join(dirs.root, 'a', 'linkdir'));
    await symlink(dirs.outside, join(dirs.root, 'link+dir'));
    for (const args of [
      { pattern: 'foo', glob: 'linkdir/*' },
      { pattern: 'foo', glob: 'linkdir/**/*.txt' },
      { pattern: 'foo', glob: 'a/linkdir/**' },
      { pattern: 'foo', path: 'a', glob: 'linkdir/*' },
      { pattern: 'foo', path: 'a/linkdir' },
    ]) {
      await failureOf(grep(args), 'TOOL_DENIED');
    }
    expect(await grep({ pattern: 'foo', glob: 'link+dir/*' })).toBe('No matches found for "foo" in .');
    expect(await grep({ pattern: 'foo' })).toBe('Found 1 match in 1 file\na/mine.txt:1: foo');
  });

  it('searches through a symlinked directory that stays inside the workspace', async () => {
    await writeFiles(dirs.root, { 'real/x.txt': 'foo' });
    await symlink(join(dirs.root, 'real'), join(dirs.root, 'inlink'));
    expect(await grep({ pattern: 'foo', glob: 'inlink/*' })).toBe(
      'Found 1 match in 1 file\ninlink/x.txt:1: foo',
    );
    expect(await grep({ pattern: 'foo', path: 'inlink' })).toBe('Found 1 match in 1 file\nreal/x.txt:1: foo');
  });

  // 2^34 ways to split the a's before the "!" fails them: about half an hour, beyond any test
  // timeout, so a search that ends at all was stopped.
  const catastrophic = { pattern: '^(a+)+$' };
  const slowLine = `${'a'.repeat(34)}!\n`;

  it('stops a catastrophic pattern at once when the call is aborted', async () => {
    await writeFiles(dirs.root, { 'a.txt': slowLine, 'b.txt': 'aaa\n' });
    const controller = new AbortController();
    const call = callTool(createGrepTool({ root: dirs.root }), catastrophic, { signal: controller.signal });
    // The caller's own timeout, the behaviour under test: it fires while the pattern runs.
    void simulatedDelay(100).then(() =>
      controller.abort(new CairnError('TOOL_TIMEOUT', 'no result after 100 ms')),
    );
    // Only a stop ends it: the pattern alone would run for half an hour.
    await failureOf(call, 'TOOL_TIMEOUT');
  });

  it('stops a search that outlasts grepTimeoutMs with TOOL_TIMEOUT naming the pattern', async () => {
    await writeFiles(dirs.root, { 'a.txt': slowLine });
    const error = await failureOf(grep(catastrophic, { grepTimeoutMs: 200 }), 'TOOL_TIMEOUT');
    expect(error.message).toMatch(/^The search for "\^\(a\+\)\+\$" did not finish within 0\.2 s .*too slow/);
    // The next search runs as usual.
    await writeFiles(dirs.root, { 'a.txt': 'aaa\n' });
    expect(await grep(catastrophic, { grepTimeoutMs: 200 })).toBe('Found 1 match in 1 file\na.txt:1: aaa');
  });
});
