import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEditFileTool } from './edit-file-tool.js';
import { callTool, escapesTo, failureOf, useTempWorkspace, writeFiles } from './test-support.js';

const dirs = useTempWorkspace();
const tool = () => createEditFileTool({ root: dirs.root });
const editFile = (args: object) => callTool(tool(), args);
const content = (path: string) => readFile(join(dirs.root, path), 'utf8');

describe('edit_file', () => {
  it('replaces the one occurrence and returns the original for the diff', async () => {
    await writeFiles(dirs.root, { 'src/a.ts': 'let a = 1;\nlet b = 2;\n' });
    const result = await editFile({ path: 'src/a.ts', old_string: 'let a', new_string: 'const a' });
    expect(result).toEqual({
      type: 'update',
      filePath: 'src/a.ts',
      originalFile: 'let a = 1;\nlet b = 2;\n',
      replacements: 1,
    });
    expect(tool().toModelOutput?.(result)).toBe('Updated src/a.ts (1 replacement)');
    expect(await content('src/a.ts')).toBe('const a = 1;\nlet b = 2;\n');
  });

  it('fails when old_string is not there, or there several times, saying how to fix the call', async () => {
    await writeFiles(dirs.root, { 'a.ts': 'let x;\nlet y;\n' });
    const missing = await failureOf(
      editFile({ path: 'a.ts', old_string: 'var', new_string: 'let' }),
      'TOOL_FAILED',
    );
    expect(missing.message).toMatch(/old_string was not found in a\.ts/);
    const several = await failureOf(
      editFile({ path: 'a.ts', old_string: 'let', new_string: 'var' }),
      'TOOL_FAILED',
    );
    expect(several.message).toMatch(/occurs 2 times in a\.ts.*replace_all/);
    expect(await content('a.ts')).toBe('let x;\nlet y;\n');
  });

  it('replaces every occurrence with replace_all', async () => {
    await writeFiles(dirs.root, { 'a.ts': 'let x;\nlet y;\n' });
    const result = await editFile({ path: 'a.ts', old_string: 'let', new_string: 'var', replace_all: true });
    expect(result.replacements).toBe(2);
    expect(tool().toModelOutput?.(result)).toBe('Updated a.ts (2 replacements)');
    expect(await content('a.ts')).toBe('var x;\nvar y;\n');
  });

  it('puts new_string in literally: no $& replacement patterns', async () => {
    await writeFiles(dirs.root, { 'a.ts': 'price = X;\n' });
    await editFile({ path: 'a.ts', old_string: 'X', new_string: "'$&' + $1 + $$" });
    expect(await content('a.ts')).toBe("price = '$&' + $1 + $$;\n");
    await editFile({ path: 'a.ts', old_string: 'price', new_string: '$`', replace_all: true });
    expect(await content('a.ts')).toBe("$` = '$&' + $1 + $$;\n");
  });

  it('refuses an edit that changes nothing', async () => {
    await writeFiles(dirs.root, { 'a.ts': 'x' });
    await failureOf(editFile({ path: 'a.ts', old_string: 'x', new_string: 'x' }), 'TOOL_INVALID_INPUT');
  });

  it('creates a new file from an empty old_string, only when there is none', async () => {
    const result = await editFile({ path: 'new/b.ts', old_string: '', new_string: 'hello\n' });
    expect(result).toEqual({ type: 'create', filePath: 'new/b.ts', originalFile: '' });
    expect(tool().toModelOutput?.(result)).toBe('Created new/b.ts');
    expect(await content('new/b.ts')).toBe('hello\n');
    const exists = await failureOf(
      editFile({ path: 'new/b.ts', old_string: '', new_string: 'x' }),
      'TOOL_FAILED',
    );
    expect(exists.message).toMatch(/already exists/);
  });

  it('fails on a missing file and on a binary one', async () => {
    expect(
      (await failureOf(editFile({ path: 'no.ts', old_string: 'a', new_string: 'b' }), 'TOOL_FAILED')).message,
    ).toMatch(/File not found: no\.ts/);
    await writeFiles(dirs.root, { 'bin.dat': new Uint8Array([97, 0, 98]) });
    await failureOf(editFile({ path: 'bin.dat', old_string: 'a', new_string: 'b' }), 'TOOL_FAILED');
  });

  it('refuses files outside the workspace, symlinks included, and leaves them alone', async () => {
    for (const path of await escapesTo(dirs, 'target.txt', 'secret')) {
      await failureOf(editFile({ path, old_string: 'secret', new_string: 'pwned' }), 'TOOL_DENIED');
    }
    await failureOf(
      editFile({ path: 'dir-link/new.txt', old_string: '', new_string: 'pwned' }),
      'TOOL_DENIED',
    );
    expect(await readFile(join(dirs.outside, 'target.txt'), 'utf8')).toBe('secret');
  });

  it('lands every one of parallel edits of one file (one assistant message, several calls)', async () => {
    await writeFiles(dirs.root, { 'a.txt': 'alpha\nbeta\n' });
    const results = await Promise.all([
      editFile({ path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' }),
      editFile({ path: 'a.txt', old_string: 'beta', new_string: 'BETA' }),
    ]);
    expect(results.map((result) => result.replacements)).toEqual([1, 1]);
    expect(await content('a.txt')).toBe('ALPHA\nBETA\n');
    const words = Array.from({ length: 8 }, (_, index) => `word${index}`);
    await writeFiles(dirs.root, { 'b.txt': `${words.join('\n')}\n` });
    await Promise.all(
      words.map((word) =>
        editFile({ path: join(dirs.root, 'b.txt'), old_string: word, new_string: word.toUpperCase() }),
      ),
    );
    expect(await content('b.txt')).toBe(`${words.map((word) => word.toUpperCase()).join('\n')}\n`);
  });
});
