import { mkdir, open, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type BlobRange, CairnError } from '@cairn/core';
import { normalizeBlobRange } from '@cairn/storage';
import { isMissing } from './missing-files.js';
import { writeFileAtomic } from './write-file-atomic.js';

// A blob is one file (its path from FsLayout.blobFile), written whole and atomically.

/** Whether the blob file exists with `size` bytes (a content-addressed blob then holds them). */
export async function hasBlobOfSize(file: string, size: number): Promise<boolean> {
  const stats = await stat(file).catch((error: unknown) => {
    if (isMissing(error)) return undefined;
    throw error;
  });
  return stats?.size === size;
}

export async function writeBlobFile(file: string, bytes: Uint8Array, durable: boolean): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFileAtomic(file, bytes, durable);
}

/** The blob's bytes in `range`; `STORE_NOT_FOUND` when there is no such blob. */
export async function readBlobFile(file: string, ref: string, range?: BlobRange): Promise<Uint8Array> {
  const { offset, length } = normalizeBlobRange(range);
  const handle = await open(file, 'r').catch((error: unknown) => {
    if (isMissing(error)) throw new CairnError('STORE_NOT_FOUND', `No blob ${ref}`, { details: { ref } });
    throw error;
  });
  try {
    const size = (await handle.stat()).size;
    const wanted = Math.max(0, Math.min(length ?? size, size - offset));
    const bytes = Buffer.alloc(wanted);
    if (wanted > 0) await handle.read(bytes, 0, wanted, offset);
    return bytes;
  } finally {
    await handle.close();
  }
}
