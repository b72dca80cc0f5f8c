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
});
