import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes a whole file so that readers see the old content or the new, never a mix: a temp file
 * in the same directory (a dot name, so it never looks like an id), optionally fsynced, renamed over.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, sync: boolean): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'w');
  try {
    await handle.writeFile(data);
    if (sync) await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}
