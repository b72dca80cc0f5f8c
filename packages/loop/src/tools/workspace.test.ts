import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { failureOf, useTempWorkspace, writeFiles } from './test-support.js';
import { openWorkspace } from './workspace.js';

const dirs = useTempWorkspace();
const context = { toolCallId: 'c1', signal: new AbortController().signal };
const open = () => openWorkspace(dirs.root, context);

describe('openWorkspace', () => {
  it('resolves relative paths and absolute paths inside the root', async () => {
    const workspace = await open();
    expect(await workspace.resolve('src/a.ts')).toEqual({
      absolute: join(dirs.root, 'src', 'a.ts'),
      relative: 'src/a.ts',
    });
    expect(await workspace.resolve(join(dirs.root, 'b.txt'))).toMatchObject({ relative: 'b.txt' });
    expect(await workspace.resolve('.')).toEqual({ absolute: dirs.root, relative: '.' });
    expect(await workspace.resolve('src/../c.txt')).toMatchObject({ relative: 'c.txt' });
  });

  it('uses the call’s projectRoot when it has no root of its own', async () => {
    const workspace = await openWorkspace(undefined, { ...context, projectRoot: dirs.root });
    expect(workspace.root).toBe(dirs.root);
  });

  it('refuses every call when there is no workspace at all', async () => {
    const error = await failureOf(openWorkspace(undefined, context), 'TOOL_DENIED');
    expect(error.message).toMatch(/no workspace/);
  });

  it('fails when the root does not exist', async () => {
    await failureOf(openWorkspace(join(dirs.root, 'missing'), context), 'TOOL_FAILED');
  });

  it('refuses paths that climb out, absolute paths elsewhere and NUL bytes, naming the path', async () => {
    const workspace = await open();
    for (const path of ['..', '../x', 'a/../../x', join(dirs.outside, 'x'), '/etc/passwd', 'a\0b']) {
      const error = await failureOf(workspace.resolve(path), 'TOOL_DENIED');
      expect(error.message).toContain(JSON.stringify(path));
    }
  });

  it('refuses symlinks leading outside: to a file, to a directory, and dangling ones', async () => {
    await writeFiles(dirs.outside, { 'secret.txt': 'secret' });
    await symlink(join(dirs.outside, 'secret.txt'), join(dirs.root, 'file-link'));
    await symlink(dirs.outside, join(dirs.root, 'dir-link'));
    await symlink(join(dirs.outside, 'nothing-yet'), join(dirs.root, 'dangling'));
    const workspace = await open();
    for (const path of [
      'file-link',
      'dir-link',
      'dir-link/secret.txt',
      'dir-link/new/file.txt',
      'dangling',
    ]) {
      await failureOf(workspace.resolve(path), 'TOOL_DENIED');
    }
  });

  it('follows symlinks that stay inside, to their real path', async () => {
    await mkdir(join(dirs.root, 'real'));
    await symlink(join(dirs.root, 'real'), join(dirs.root, 'alias'));
    const workspace = await open();
    expect(await workspace.resolve('alias/new.txt')).toEqual({
      absolute: join(dirs.root, 'real', 'new.txt'),
      relative: 'real/new.txt',
    });
  });

  it('accepts absolute paths spelled through a symlinked root', async () => {
    await symlink(dirs.root, join(dirs.outside, 'root-link'));
    const linkedRoot = join(dirs.outside, 'root-link');
    const workspace = await openWorkspace(linkedRoot, context);
    expect(workspace.root).toBe(dirs.root);
    expect(await workspace.resolve(join(linkedRoot, 'a.txt'))).toMatchObject({ relative: 'a.txt' });
  });
});
