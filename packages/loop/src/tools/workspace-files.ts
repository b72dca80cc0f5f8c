import type { Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CairnError } from '@cairn/core';
import { glob } from 'tinyglobby';
import type { Workspace, WorkspacePath } from './workspace.js';

// Never searched: installed dependencies and git's own files.
const IGNORED = ['**/node_modules/**', '**/.git/**'];
// `..` as a whole segment, also inside braces and extglobs: `../x`, `{..,src}/x`, `@(..)/x`.
const PARENT_SEGMENT = /(^|[\\/{,(|])\.\.($|[\\/},)|])/;
// An absolute start, also inside braces and extglobs: `/etc`, `\\server`, `C:`, `{/etc,src}`.
const ABSOLUTE_START = /(^|[{,(|])([\\/]|[A-Za-z]:)/;

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
 * The files under `directory` matching `pattern`, sorted by their workspace-relative path. Symlinks
 * are neither followed nor returned.
 */
export async function findWorkspaceFiles(
  workspace: Workspace,
  directory: WorkspacePath,
  pattern: string,
  signal: AbortSignal,
): Promise<WorkspacePath[]> {
  const found = await glob(pattern, {
    cwd: directory.absolute,
    dot: true,
    ignore: IGNORED,
    followSymbolicLinks: false,
    expandDirectories: false,
    onlyFiles: true,
    signal,
  });
  signal.throwIfAborted();
  return found
    .map((path) => resolve(directory.absolute, path))
    .filter((absolute) => workspace.contains(absolute))
    .map((absolute) => ({ absolute, relative: workspace.relativeOf(absolute) }))
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
