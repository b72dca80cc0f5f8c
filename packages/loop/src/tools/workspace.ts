import { lstat, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { CairnError, type ToolContext } from '@cairn/core';

/** A path inside the workspace. */
export interface WorkspacePath {
  /** Absolute, with the symlinks of its existing part resolved: the path to operate on. */
  absolute: string;
  /** Relative to the workspace root with `/` separators (`.` for the root): the path to show. */
  relative: string;
}

/** The sandbox every workspace tool goes through: paths outside the root are refused, never touched. */
export interface Workspace {
  /** The root's real path. */
  root: string;
  /** `requested` (relative to the root, or absolute inside it) if it stays inside, symlinks followed. */
  resolve(requested: string): Promise<WorkspacePath>;
  /** True when the absolute `path` is the root or under it (a plain path check, no symlinks). */
  contains(path: string): boolean;
  /** The absolute `path` relative to the root, for display. */
  relativeOf(path: string): string;
}

const isInside = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  // A path on another Windows drive comes back absolute.
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
};

const codeOf = (error: unknown): unknown => (error as NodeJS.ErrnoException | undefined)?.code;

const denied = (requested: string, why: string) =>
  new CairnError('TOOL_DENIED', `Path ${JSON.stringify(requested)} ${why}`, { details: { path: requested } });

/**
 * The real path of `path`: its nearest existing ancestor's real path plus the part that does not
 * exist yet. A dangling symlink on the way is refused: writing through it would create its target,
 * wherever that is.
 */
async function realPathOf(path: string, requested: string): Promise<string> {
  const missing: string[] = [];
  for (let current = path; ; current = dirname(current)) {
    try {
      return join(await realpath(current), ...missing);
    } catch (error) {
      const code = codeOf(error);
      if (code === 'ELOOP') throw denied(requested, 'goes through a symbolic link loop');
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
    }
    const danglingLink = await lstat(current).then(
      (stats) => stats.isSymbolicLink(),
      () => false,
    );
    if (danglingLink) throw denied(requested, 'goes through a symbolic link whose target does not exist');
    if (dirname(current) === current) return path;
    missing.unshift(basename(current));
  }
}

/** Opens the workspace a call may touch: `root` when given, else the call's `projectRoot`. */
export async function openWorkspace(root: string | undefined, context: ToolContext): Promise<Workspace> {
  const given = root ?? context.projectRoot;
  if (given === undefined || given === '') {
    throw new CairnError(
      'TOOL_DENIED',
      'There is no workspace: the tools were given no root and the call has no projectRoot, so no file may be touched.',
    );
  }
  const givenRoot = resolve(given);
  let realRoot: string;
  try {
    realRoot = await realpath(givenRoot);
    if (!(await stat(realRoot)).isDirectory()) throw new Error('not a directory');
  } catch (error) {
    throw new CairnError('TOOL_FAILED', `The workspace root ${givenRoot} is not a directory that exists.`, {
      cause: error,
    });
  }
  const relativeOf = (path: string) => relative(realRoot, path).split(sep).join('/') || '.';
  return {
    root: realRoot,
    contains: (path) => isInside(realRoot, path),
    relativeOf,
    async resolve(requested) {
      if (requested.includes('\0')) throw denied(requested, 'contains a NUL byte');
      const lexical = resolve(realRoot, requested);
      // The root as given may differ from its real path (macOS's /tmp): absolute paths may use either.
      if (!isInside(realRoot, lexical) && !isInside(givenRoot, lexical)) {
        throw denied(requested, 'is outside the workspace; use a path inside it');
      }
      const real = await realPathOf(lexical, requested);
      if (!isInside(realRoot, real)) {
        throw denied(
          requested,
          'leads outside the workspace (through a symbolic link); use a path inside it',
        );
      }
      return { absolute: real, relative: relativeOf(real) };
    },
  };
}
