import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createListDirTool } from './list-dir-tool.js';
import { callTool, failureOf, useTempWorkspace, writeFiles } from './test-support.js';

const dirs = useTempWorkspace();
const tool = (options = {}) => createListDirTool({ root: dirs.root, ...options });
const listDir = (args: object, options = {}) => callTool(tool(options), args);

describe('list_dir', () => {
  it('lists the root by default: sorted, directories ending with a slash', async () => {
    await writeFiles(dirs.root, { 'b.txt': '', 'src/a.ts': '', '.env': '', 'A.md': '' });
    const result = await listDir({});
    expect(result).toEqual({ path: '.', filenames: ['.env', 'A.md', 'b.txt', 'src/'], numFiles: 4 });
    expect(tool().toModelOutput?.(result)).toBe('.env\nA.md\nb.txt\nsrc/');
  });

  it('lists a subdirectory', async () => {
    await writeFiles(dirs.root, { 'src/a.ts': '', 'src/lib/b.ts': '' });
    expect(await listDir({ path: 'src' })).toEqual({ path: 'src', filenames: ['a.ts', 'lib/'], numFiles: 2 });
  });

  it('caps the entries and says how many were left out', async () => {
    await writeFiles(
      dirs.root,
      Object.fromEntries(Array.from({ length: 5 }, (_, index) => [`f${index}.txt`, ''])),
    );
    const result = await listDir({}, { maxListEntries: 2 });
    expect(result).toEqual({ path: '.', filenames: ['f0.txt', 'f1.txt'], numFiles: 5 });
    expect(tool().toModelOutput?.(result)).toBe('f0.txt\nf1.txt\n[3 more entries truncated]');
  });

  it('says when a directory is empty', async () => {
    await mkdir(join(dirs.root, 'empty'));
    const result = await listDir({ path: 'empty' });
    expect(tool().toModelOutput?.(result)).toBe('Directory empty is empty.');
  });

  it('fails on a file and on a missing directory', async () => {
    await writeFiles(dirs.root, { 'a.txt': '' });
    expect((await failureOf(listDir({ path: 'a.txt' }), 'TOOL_FAILED')).message).toMatch(/use read_file/);
    expect((await failureOf(listDir({ path: 'missing' }), 'TOOL_FAILED')).message).toMatch(/not found/);
  });

  it('marks a symlink as a directory only when it leads to one inside', async () => {
    await mkdir(join(dirs.root, 'real'));
    await symlink(join(dirs.root, 'real'), join(dirs.root, 'alias'));
    await symlink(dirs.outside, join(dirs.root, 'escape'));
    expect((await listDir({})).filenames).toEqual(['alias/', 'escape', 'real/']);
  });

  it('refuses directories outside the workspace, symlinks included', async () => {
    await writeFiles(dirs.outside, { 'secret.txt': '' });
    await symlink(dirs.outside, join(dirs.root, 'escape'));
    for (const path of ['..', dirs.outside, 'escape']) await failureOf(listDir({ path }), 'TOOL_DENIED');
  });
});
