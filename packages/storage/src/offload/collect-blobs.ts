import { assertSafeRef } from '@cairn/core';
import { isAttachmentRef } from '../attachments/attachment-ref.js';
import { toBlobBytes } from '../blob/blob-bytes.js';
import type { BlobWriter } from './prepare-tool-message-for-storage.js';

/** A blob an append offloads, waiting to be written with its messages. */
export interface PendingBlob {
  ref: string;
  bytes: Uint8Array;
  /**
   * The ref is the SHA-256 of the bytes (a media part's, `attachmentRef`): when a blob of that ref
   * and size is already stored, the backend skips the write (an image sent again is not written
   * again); it never replaces the stored one with other bytes.
   */
  contentAddressed: boolean;
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
        blobs.push({ ref, bytes: toBlobBytes(data), contentAddressed: isAttachmentRef(ref) });
      },
    },
  };
}
