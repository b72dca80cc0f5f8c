import { assertSafeId, type BlobSource } from '@cairn/core';

const ATTACHMENTS = 'attachments/';

/**
 * The store-relative reference of a part's bytes: content-addressed within the conversation, so the
 * same image sent twice is stored once, and deleting the conversation deletes it.
 */
export function attachmentRef(conversationId: string, sha256: BlobSource['sha256']): string {
  assertSafeId('conversationId', conversationId);
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new TypeError(`not a SHA-256: ${sha256}`);
  return `${ATTACHMENTS}${conversationId}/${sha256}`;
}

/**
 * Whether `ref` names a part's bytes (`attachmentRef`): its name is the SHA-256 of its bytes, so a
 * blob already there holds them and is never written again.
 */
export function isAttachmentRef(ref: string): boolean {
  return ref.startsWith(ATTACHMENTS);
}
