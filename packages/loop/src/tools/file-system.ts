import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { CairnError } from '@cairn/core';

const REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'it does not exist',
  ENOTDIR: 'a part of the path is a file, not a directory',
  EISDIR: 'it is a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOSPC: 'no space left on the device',
  EROFS: 'the file system is read-only',
};

/** A file system error as a tool failure the model can read: "Cannot write src/a.ts: permission denied". */
export function fileSystemFailure(error: unknown, action: string, path: string): CairnError {
  if (CairnError.is(error)) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason =
    (code === undefined ? undefined : REASONS[code]) ??
    (error instanceof Error ? error.message : String(error));
  return new CairnError('TOOL_FAILED', `Cannot ${action} ${path}: ${reason}`, { cause: error });
}

/** The stats of `path`, or undefined when nothing is there. */
export async function statIfExists(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}
