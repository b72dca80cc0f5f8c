import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGlobTool } from './glob-tool.js';
import { callTool, failureOf, useTempWorkspace, writeFiles } from './test-support.js';

const dirs = useTempWorkspace();
const tool = (options = {}) => createGlobTool({ root: dirs.root, ...options });
const glob = (args: object, options = {}) => callTool(tool(options), args);

describe('glob', () => {
  it('finds files relative to the root, sorted, skipping node_modules and .git', async () => {
    await writeFiles(dirs.root, {
      'src/b.ts': '',
      'src/a.ts': '',
      'src/lib/c.ts': '',
      'src/d.js': '',
      '.config/e.ts': '',
      'node_modules/pkg/index.ts': '',
      '.git/hooks/x.ts': '',
    });
    const result = await glob({ pattern: '**/*.ts' });
    expect(result).toEqual({
      filenames: ['.config/e.ts', 'src/a.ts', 'src/b.ts', 'src/lib/c.ts'],
      numFiles: 4,
      truncated: false,
    });
    expect(tool().toModelOutput?.(result)).toBe('.config/e.ts\nsrc/a.ts\nsrc/b.ts\nsrc/lib/c.ts');
  });

  it('searches from path, still returning paths relative to the root', async () => {
    await writeFiles(dirs.root, { 'src/a.ts': '', 'src/lib/c.ts': '', 'top.ts': '' });
    expect((await glob({ pattern: '*.ts', path: 'src' })).filenames).toEqual(['src/a.ts']);
    expect((await glob({ pattern: '{top,src/lib/*}.{ts,js}' })).filenames).toEqual([
      'src/lib/c.ts',
      'top.ts',
    ]);
    expect((await glob({ pattern: '**/*.ts', path: join(dirs.root, 'src') })).filenames).toEqual([
      'src/a.ts',
      'src/lib/c.ts',
    ]);
  });

  it('caps the results and says they were truncated', async () => {
    await writeFiles(dirs.root, { 'a.ts': '', 'b.ts': '', 'c.ts': '' });
    const result = await glob({ pattern: '*.ts' }, { maxGlobResults: 2 });
    expect(result).toEqual({ filenames: ['a.ts', 'b.ts'], numFiles: 2, truncated: true });
    expect(tool().toModelOutput?.(result)).toMatch(/^a\.ts\nb\.ts\n\(Results are truncated/);
  });

  it('says when nothing matched', async () => {
    const result = await glob({ pattern: '**/*.rs' });
    expect(result).toEqual({ filenames: [], numFiles: 0, truncated: false });
    expect(tool().toModelOutput?.(result)).toBe('No files found');
  });

  it('refuses patterns and paths that reach outside', async () => {
    for (const pattern of ['../*', 'src/../../*', '{..,src}/*', '/etc/*', 'C:/x/*', '{/etc,src}/*']) {
      await failureOf(glob({ pattern }), 'TOOL_DENIED');
    }
    await failureOf(glob({ pattern: '*', path: '..' }), 'TOOL_DENIED');
    await failureOf(glob({ pattern: '*', path: dirs.outside }), 'TOOL_DENIED');
  });

  it('never returns what symlinks lead to outside, and refuses searching through them', async () => {
    await writeFiles(dirs.outside, { 'secret.ts': '', 'sub/deep.ts': '' });
    await writeFiles(dirs.root, { 'mine.ts': '' });
    await symlink(dirs.outside, join(dirs.root, 'escape'));
    await symlink(join(dirs.outside, 'secret.ts'), join(dirs.root, 'linked.ts'));
    expect((await glob({ pattern: '**/*.ts' })).filenames).toEqual(['mine.ts']);
    await failureOf(glob({ pattern: '**/*', path: 'escape' }), 'TOOL_DENIED');
  });

  it('refuses a pattern that goes through a symlinked directory out of the workspace, nested or from path', async () => {
    await writeFiles(dirs.outside, { 'secret.txt': '', 'sub/deep.txt': '' });
    await writeFiles(dirs.root, { 'a/mine.txt': '' });
    await symlink(dirs.outside, join(dirs.root, 'linkdir'));
    await symlink(dirs.outside, join(dirs.root, 'a', 'linkdir'));
    for (const args of [
      { pattern: 'linkdir/*' },
      { pattern: 'linkdir/**' },
      { pattern: 'linkdir/sub/*.txt' },
      { pattern: 'a/linkdir/**' },
      { pattern: 'linkdir/*', path: 'a' },
      { pattern: '*', path: 'a/linkdir' },
    ]) {
      const error = await failureOf(glob(args), 'TOOL_DENIED');
      expect(error.message).toMatch(/leads outside the workspace/);
    }
  });

  it('never lists a directory outside, however the pattern names it', async () => {
    await writeFiles(dirs.outside, { 'secret.txt': '', 'sub/deep.txt': '' });
    await writeFiles(dirs.root, { 'a/mine.txt': '' });
    // "+" makes it no plain name to check up front, yet the crawl starts in it all the same.
    await symlink(dirs.outside, join(dirs.root, 'link+dir'));
    await symlink(dirs.outside, join(dirs.root, 'a', 'link+dir'));
    for (const pattern of [
      'link+dir/*',
      'link+dir/**/*.txt',
      'a/link+dir/*',
      '*/link+dir/*',
      '**/secret.txt',
    ]) {
      expect((await glob({ pattern })).filenames).toEqual([]);
    }
    expect((await glob({ pattern: '**/*.txt' })).filenames).toEqual(['a/mine.txt']);
  });

  it('follows a symlinked directory named in the pattern or path when it stays inside', async () => {
    await writeFiles(dirs.root, { 'real/x.ts': '', 'real/sub/y.ts': '' });
    await symlink(join(dirs.root, 'real'), join(dirs.root, 'inlink'));
    expect((await glob({ pattern: 'inlink/*.ts' })).filenames).toEqual(['inlink/x.ts']);
    expect((await glob({ pattern: 'inlink/**/*.ts' })).filenames).toEqual(['inlink/sub/y.ts', 'inlink/x.ts']);
    expect((await glob({ pattern: '**/*.ts', path: 'inlink' })).filenames).toEqual([
      'real/sub/y.ts',
      'real/x.ts',
    ]);
  });
});
