import { type Dirent, readdir, type Stats } from 'node:fs';
import { lstat, realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CairnError } from '@cairn/core';
import { type FileSystemAdapter, glob } from 'tinyglobby';
import type { Workspace, WorkspacePath } from './workspace.js';

// Never searched: installed dependencies and git's own files.
const IGNORED = ['**/node_modules/**', '**/.git/**'];
// `..` as a whole segment, also inside braces and extglobs: `../x`, `{..,src}/x`, `@(..)/x`.
const PARENT_SEGMENT = /(^|[\\/{,(|])\.\.($|[\\/},)|])/;
// An absolute start, also inside braces and extglobs: `/etc`, `\\server`, `C:`, `{/etc,src}`.
const ABSOLUTE_START = /(^|[{,(|])([\\/]|[A-Za-z]:)/;
// A pattern segment with nothing special in it: a plain directory name.
const LITERAL_SEGMENT = /^[^*?[\]{}()!+@\\]+$/;

/** Refuses a glob pattern that could match outside the directory it is applied in. */
export function assertPatternStaysInside(pattern: string): void {
  if (pattern.includes('\0') || PARENT_SEGMENT.test(pattern) || ABSOLUTE_START.test(pattern)) {
    throw new CairnError(
      'TOOL_DENIED',
      `The glob pattern ${JSON.stringify(pattern)} could reach outside the workspace: use a relative pattern ` +
        'without "..", and the path field to choose the directory.',
      { details: { pattern } },
    );
  }
}

/**
 * Refuses a pattern whose leading directories (`linkdir/…`, `a/linkdir/**`) lead outside the
 * workspace through a symlink: the glob would start its crawl there.
 */
async function assertPatternPrefixInside(workspace: Workspace, directory: WorkspacePath, pattern: string) {
  const segments = pattern.split('/');
  const prefix: string[] = [];
  for (const segment of segments.slice(0, -1)) {
    if (!LITERAL_SEGMENT.test(segment)) break;
    prefix.push(segment);
  }
  if (prefix.length === 0) return;
  try {
    await workspace.resolve(join(directory.absolute, ...prefix));
  } catch (error) {
    if (!CairnError.is(error) || error.code !== 'TOOL_DENIED') throw error;
    throw new CairnError(
      'TOOL_DENIED',
      `The glob pattern ${JSON.stringify(pattern)} goes through ${JSON.stringify(prefix.join('/'))}, which leads ` +
        'outside the workspace (a symbolic link); use a pattern inside it.',
      { details: { pattern } },
    );
  }
}

type ReaddirCallback = (error: NodeJS.ErrnoException | null, entries?: Dirent[]) => void;

/**
 * The file system the crawl sees: a directory whose real path is outside the workspace reads as
 * empty, so no pattern can make it list what is there (the crawl starts in the directory a pattern
 * names, symlink or not).
 */
function workspaceOnlyFileSystem(workspace: Workspace): FileSystemAdapter {
  const guardedReaddir = (path: string, options: { withFileTypes: true }, callback: ReaddirCallback) => {
    realpath(path).then(
      (real) => {
        if (!workspace.contains(real)) callback(null, []);
        else readdir(real, options, callback);
      },
      (error: NodeJS.ErrnoException) => callback(error),
    );
  };
  // fdir calls readdir(path, { withFileTypes: true }, callback) only; the adapter types all overloads.
  return { readdir: guardedReaddir as unknown as NonNullable<FileSystemAdapter['readdir']> };
}

/**
 * The files under `directory` matching `pattern`, sorted by their workspace-relative path. Symlinks
 * are neither followed nor returned, and every path returned has its real path inside the workspace
 * (`absolute` is that real path; `relative` is the path as matched).
 */
export async function findWorkspaceFiles(
  workspace: Workspace,
  directory: WorkspacePath,
  pattern: string,
  signal: AbortSignal,
): Promise<WorkspacePath[]> {
  await assertPatternPrefixInside(workspace, directory, pattern);
  const found = await glob(pattern, {
    cwd: directory.absolute,
    dot: true,
    ignore: IGNORED,
    followSymbolicLinks: false,
    expandDirectories: false,
    onlyFiles: true,
    fs: workspaceOnlyFileSystem(workspace),
    signal,
  });
  signal.throwIfAborted();
  const inside = await Promise.all(
    found.map(async (path): Promise<WorkspacePath | undefined> => {
      const lexical = resolve(directory.absolute, path);
      if (!workspace.contains(lexical)) return undefined;
      const real = await realpath(lexical).catch(() => undefined);
      if (real === undefined || !workspace.contains(real)) return undefined;
      return { absolute: real, relative: workspace.relativeOf(lexical) };
    }),
  );
  signal.throwIfAborted();
  return inside
    .filter((file) => file !== undefined)
    .sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
}

/**
 * The stats of a found path when it is a regular file. Symlinks are skipped, as the glob skips them
 * (one may lead outside the workspace).
 */
export async function regularFileStats(absolute: string): Promise<Stats | undefined> {
  const stats = await lstat(absolute).catch(() => undefined);
  return stats?.isFile() ? stats : undefined;
}
