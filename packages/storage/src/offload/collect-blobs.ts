import { assertSafeRef } from '@cairn/core';
import { toBlobBytes } from '../blob/blob-bytes.js';
import type { BlobWriter } from './prepare-tool-message-for-storage.js';

/** A blob an append offloads, waiting to be written with its messages. */
export interface PendingBlob {
  ref: string;
  bytes: Uint8Array;
}

/**
 * A `BlobWriter` that only records: database stores pass it to `prepareAppend`, then write the
 * collected blobs in the same transaction as the messages, so a concurrent delete can never leave
 * a message pointing at a removed output.
 */
export function collectBlobs(): { writer: BlobWriter; blobs: PendingBlob[] } {
  const blobs: PendingBlob[] = [];
  return {
    blobs,
    writer: {
      async putBlob(ref, data) {
        assertSafeRef('blob ref', ref);
        blobs.push({ ref, bytes: toBlobBytes(data) });
      },
    },
  };
}
