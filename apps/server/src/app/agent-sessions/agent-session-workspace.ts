import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep, win32 } from 'node:path';
import { CairnError } from '@cairn/core';

/** Why a requested `cwd` is refused before the file system is asked; undefined when it may be tried. */
export function cwdSyntaxProblem(cwd: string): string | undefined {
  if (cwd.includes('\0')) return 'must not contain NUL';
  if (isAbsolute(cwd) || win32.isAbsolute(cwd)) return 'must be a path relative to the workspace root';
  if (cwd.split(/[/\\]/).includes('..')) return 'must not contain `..`';
  return undefined;
}

const inside = (root: string, path: string) =>
  path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);

const refused = (message: string) => new CairnError('INVALID_ARGUMENT', message);

/** Where a session runs: the real workspace root, and the real directory inside it. */
export interface SessionDirectory {
  root: string;
  cwd: string;
}

/**
 * The real directory a session runs in: `cwd` (relative; the root when absent) inside the
 * workspace root, after symbolic links, which must not lead out of the root. Throws
 * `INVALID_ARGUMENT` naming `cwd` as given (never the server's own paths).
 */
export async function resolveSessionCwd(
  workspaceRoot: string,
  cwd: string | undefined,
): Promise<SessionDirectory> {
  const given = cwd ?? '.';
  const problem = cwdSyntaxProblem(given);
  if (problem !== undefined) throw refused(`cwd ${problem}`);
  let root: string;
  try {
    root = await realpath(workspaceRoot);
  } catch (error) {
    // The operator's mistake, not the client's: an internal error, logged by name only.
    throw new Error('the agent sessions workspace root is not readable', { cause: error });
  }
  let real: string;
  try {
    real = await realpath(resolve(root, given));
  } catch {
    throw refused(`cwd ${JSON.stringify(given)} does not exist in the workspace`);
  }
  if (!inside(root, real)) throw refused(`cwd ${JSON.stringify(given)} leads outside the workspace root`);
  if (!(await stat(real)).isDirectory()) throw refused(`cwd ${JSON.stringify(given)} is not a directory`);
  return { root, cwd: real };
}

/** `path` as the client may see it: relative to the workspace root, or a note that it is outside. */
export function shownPath(workspaceRoot: string, path: string): string {
  const within = relative(workspaceRoot, path);
  if (within === '') return '.';
  return within.startsWith('..') || isAbsolute(within) ? '(outside the workspace root)' : within;
}
