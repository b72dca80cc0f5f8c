import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createReadFileTool } from './read-file-tool.js';
import { callTool, escapesTo, failureOf, useTempWorkspace, writeFiles } from './test-support.js';

const dirs = useTempWorkspace();
const readFile = (args: object, options = {}) =>
  callTool(createReadFileTool({ root: dirs.root, ...options }), args);

describe('read_file', () => {
  it('numbers the lines like cat -n', async () => {
    await writeFiles(dirs.root, { 'src/a.ts': 'one\ntwo\r\nthree\n' });
    expect(await readFile({ path: 'src/a.ts' })).toBe('     1\tone\n     2\ttwo\n     3\tthree');
  });

  it('reads from offset, limit lines, and says how to read on', async () => {
    await writeFiles(dirs.root, { 'a.txt': 'a\nb\nc\nd\ne\n' });
    expect(await readFile({ path: 'a.txt', offset: 2, limit: 2 })).toBe(
      '     2\tb\n     3\tc\n\n[Showing lines 2-3; the file goes on. Call read_file with offset 4 to read more.]',
    );
    expect(await readFile({ path: 'a.txt', offset: 4, limit: 10 })).toBe('     4\td\n     5\te');
  });

  it('stops at maxReadLines and maxReadBytes', async () => {
    const lines = Array.from({ length: 50 }, (_, index) => `line ${index + 1}`).join('\n');
    await writeFiles(dirs.root, { 'long.txt': lines });
    const byLines = await readFile({ path: 'long.txt', limit: 1000 }, { maxReadLines: 10 });
    expect(byLines.split('\n').filter((line) => line.includes('\tline'))).toHaveLength(10);
    expect(byLines).toContain('offset 11');
    const byBytes = await readFile({ path: 'long.txt' }, { maxReadBytes: 40 });
    expect(byBytes).toBe(
      '     1\tline 1\n     2\tline 2\n\n[Showing lines 1-2; the file goes on. Call read_file with offset 3 to read more.]',
    );
  });

  it('cuts very long lines', async () => {
    await writeFiles(dirs.root, { 'min.js': 'x'.repeat(5000) });
    const text = await readFile({ path: 'min.js' });
    expect(text).toContain('[line cut at 2000 characters]');
    expect(text.length).toBeLessThan(2100);
  });

  it('fails clearly on binary files, directories, missing files and an offset past the end', async () => {
    await writeFiles(dirs.root, {
      'image.png': new Uint8Array([137, 80, 78, 71, 0, 1, 2]),
      'short.txt': 'a\nb\n',
    });
    await mkdir(join(dirs.root, 'src'));
    expect((await failureOf(readFile({ path: 'image.png' }), 'TOOL_FAILED')).message).toMatch(/binary/);
    expect((await failureOf(readFile({ path: 'src' }), 'TOOL_FAILED')).message).toMatch(/use list_dir/);
    expect((await failureOf(readFile({ path: 'nope.txt' }), 'TOOL_FAILED')).message).toBe(
      'File not found: nope.txt',
    );
    expect((await failureOf(readFile({ path: 'short.txt', offset: 5 }), 'TOOL_FAILED')).message).toMatch(
      /past the end of short\.txt, which has 2 lines/,
    );
  });

  it('says when a file is empty', async () => {
    await writeFiles(dirs.root, { 'empty.txt': '' });
    expect(await readFile({ path: 'empty.txt' })).toBe('empty.txt is empty.');
  });

  it('reads the call’s projectRoot when it has no root', async () => {
    await writeFiles(dirs.root, { 'a.txt': 'hi' });
    const tool = createReadFileTool();
    expect(await callTool(tool, { path: 'a.txt' }, { projectRoot: dirs.root })).toBe('     1\thi');
    await failureOf(callTool(tool, { path: 'a.txt' }), 'TOOL_DENIED');
  });

  it('refuses paths outside the workspace, symlinks included', async () => {
    for (const path of await escapesTo(dirs, 'secret.txt', 'secret')) {
      await failureOf(readFile({ path }), 'TOOL_DENIED');
    }
  });
});
