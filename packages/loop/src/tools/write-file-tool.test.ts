import { chmod, mkdir, readdir, readFile, stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callTool, failureOf, useTempWorkspace, writeFiles } from './test-support.js';
import { createWriteFileTool } from './write-file-tool.js';

const dirs = useTempWorkspace();
const tool = (options = {}) => createWriteFileTool({ root: dirs.root, ...options });
const writeFile = (args: object, options = {}) => callTool(tool(options), args);

describe('write_file', () => {
  it('creates a file and its directories', async () => {
    const result = await writeFile({ path: 'src/deep/a.ts', content: 'a\nb\nc\n' });
    expect(result).toEqual({ type: 'create', filePath: 'src/deep/a.ts', lineCount: 3 });
    expect(tool().toModelOutput?.(result)).toBe('Created src/deep/a.ts (3 lines)');
    expect(await readFile(join(dirs.root, 'src/deep/a.ts'), 'utf8')).toBe('a\nb\nc\n');
  });

  it('overwrites a file atomically, keeping what it replaced and its permissions', async () => {
    await writeFiles(dirs.root, { 'run.sh': 'echo old\n' });
    await chmod(join(dirs.root, 'run.sh'), 0o755);
    const result = await writeFile({ path: join(dirs.root, 'run.sh'), content: 'echo new\n' });
    expect(result).toEqual({ type: 'update', filePath: 'run.sh', lineCount: 1, originalFile: 'echo old\n' });
    expect(tool().toModelOutput?.(result)).toBe('Updated run.sh (1 line)');
    expect(await readFile(join(dirs.root, 'run.sh'), 'utf8')).toBe('echo new\n');
    expect((await stat(join(dirs.root, 'run.sh'))).mode & 0o777).toBe(0o755);
    // No temp file is left behind.
    expect(await readdir(dirs.root)).toEqual(['run.sh']);
  });

  it('leaves out an original larger than maxEditFileBytes', async () => {
    await writeFiles(dirs.root, { 'big.txt': 'x'.repeat(100) });
    const result = await writeFile({ path: 'big.txt', content: 'small' }, { maxEditFileBytes: 10 });
    expect(result).toEqual({ type: 'update', filePath: 'big.txt', lineCount: 1 });
  });

  it('fails on a directory', async () => {
    await mkdir(join(dirs.root, 'src'));
    expect((await failureOf(writeFile({ path: 'src', content: 'x' }), 'TOOL_FAILED')).message).toMatch(
      /src is a directory/,
    );
  });

  it('refuses paths outside the workspace and never writes there, symlinks included', async () => {
    await writeFiles(dirs.outside, { 'target.txt': 'untouched' });
    await symlink(join(dirs.outside, 'target.txt'), join(dirs.root, 'file-link'));
    await symlink(dirs.outside, join(dirs.root, 'dir-link'));
    await symlink(join(dirs.outside, 'created.txt'), join(dirs.root, 'dangling'));
    for (const path of [
      '../escape.txt',
      join(dirs.outside, 'abs.txt'),
      'file-link',
      'dir-link/new/x.txt',
      'dangling',
    ]) {
      await failureOf(writeFile({ path, content: 'pwned' }), 'TOOL_DENIED');
    }
    expect(await readdir(dirs.outside)).toEqual(['target.txt']);
    expect(await readFile(join(dirs.outside, 'target.txt'), 'utf8')).toBe('untouched');
  });

  it('takes parallel writes of one file one at a time: each replaces what the one before wrote', async () => {
    await writeFiles(dirs.root, { 'a.txt': 'v0\n' });
    const contents = ['v1\n', 'v2\n', 'v3\n', 'v4\n'];
    const results = await Promise.all(contents.map((content) => writeFile({ path: 'a.txt', content })));
    // In some order, each saw the file the previous one left: the originals are all different.
    const originals = results.map((result) => result.originalFile);
    expect(new Set(originals).size).toBe(contents.length);
    expect(originals).toContain('v0\n');
    const last = contents.find((content) => !originals.includes(content));
    expect(await readFile(join(dirs.root, 'a.txt'), 'utf8')).toBe(last);
  });
});
