import { assertSafeRef } from '@cairn/core';
import { toBlobBytes } from '../blob/blob-bytes.js';
import type { BlobWriter } from './prepare-tool-message-for-storage.js';

/** A blob an append offloads, waiting to be written with its messages. */
export interface PendingBlob {
  ref: string;
  bytes: Uint8Array;
}

/**
 * A `BlobWriter` that only records: every store passes it to `prepareAppend`, then writes the
 * collected blobs under its lock (a database: in the transaction) once the append is accepted, with
 * the messages. So a refused append changes no stored output, and a concurrent delete can never
 * leave a message pointing at a removed one.
 */
export function collectBlobs(): { writer: BlobWriter; blobs: PendingBlob[] } {
  const blobs: PendingBlob[] = [];
  return {
    blobs,
    writer: {
      async putBlob(ref, data) {
        assertSafeRef('blob ref', ref);
        // Content-addressed refs (media parts) repeat when one append holds the same bytes twice.
        if (blobs.some((blob) => blob.ref === ref)) return;
        blobs.push({ ref, bytes: toBlobBytes(data) });
      },
    },
  };
}
