import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { CairnError } from '@cairn/core';

// The nearest existing ancestor of `path` that is not a directory (why mkdir said ENOTDIR).
function fileInTheWay(path: string): string | undefined {
  for (let current = path; dirname(current) !== current; current = dirname(current)) {
    try {
      if (!statSync(current).isDirectory()) return current;
    } catch {
      // Not there: look further up.
    }
  }
  return undefined;
}

function problemOf(dir: string, error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'EEXIST':
      return `the data directory ${dir} is a file, not a directory`;
    case 'ENOTDIR': {
      const file = fileInTheWay(dir);
      return `the data directory ${dir} cannot be created: ${file ?? 'a part of its path'} is a file`;
    }
    case 'EROFS':
      return `the data directory ${dir} is on a read-only file system`;
    case 'EACCES':
    case 'EPERM':
      return `no permission to write to the data directory ${dir}`;
    case 'ENOSPC':
      return `no space left for the data directory ${dir}`;
    default:
      return `cannot use the data directory ${dir} (${error.code ?? error.message})`;
  }
}

/**
 * Creates the data directory when missing and checks that it is a directory the store can write:
 * the fs and SQLite stores write even to read (quarantined lines, lock files, migrations). A path
 * that is a file, lies under one, or is read-only is one `STORE_UNAVAILABLE` naming the problem and
 * the setting to change (`dataDirName`), not an errno from deep inside a store.
 */
export function prepareDataDir(dir: string, dataDirName: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (error) {
    const cause = error as NodeJS.ErrnoException;
    throw new CairnError('STORE_UNAVAILABLE', problemOf(dir, cause), {
      cause,
      details: { fix: `choose a directory you can write to with ${dataDirName}`, errno: cause.code },
    });
  }
}
