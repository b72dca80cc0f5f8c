import { stat } from 'node:fs/promises';

/** Whether a filesystem call failed because the path does not exist. */
export function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/** Whether `path` exists (any other failure to look is thrown). */
export async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    (error: unknown) => {
      if (isMissing(error)) return false;
      throw error;
    },
  );
}
