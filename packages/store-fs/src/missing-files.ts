import { statSync } from 'node:fs';

/** Whether a filesystem call failed because the path does not exist. */
export function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/**
 * Whether `path` exists (any other failure to look is thrown). Looked up on the event loop: a
 * lookup takes microseconds, where a call on libuv's pool waits behind all the file work queued
 * there (a burst of new conversations queues thousands of creates).
 */
export function exists(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false }) !== undefined;
}
