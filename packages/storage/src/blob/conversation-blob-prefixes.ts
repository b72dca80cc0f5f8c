import { assertSafeId } from '@cairn/core';

/**
 * The ref prefixes under which `append` puts a conversation's blobs: offloaded tool outputs
 * (`toolOutputRef`) and the bytes of media parts (`attachmentRef`). `deleteConversation` removes
 * everything under each. Every prefix ends with `/`; a key-ordered backend deletes the range
 * [`prefix`, `prefix` with its `/` replaced by `0`), `0` being the character after `/`, which
 * needs no LIKE pattern (where `_`, allowed in ids, is a wildcard).
 */
export function conversationBlobPrefixes(conversationId: string): string[] {
  assertSafeId('conversationId', conversationId);
  return [`tool-results/${conversationId}/`, `attachments/${conversationId}/`];
}

/** The end (exclusive) of the ref range starting at `prefix` (see `conversationBlobPrefixes`). */
export function blobPrefixEnd(prefix: string): string {
  return `${prefix.slice(0, -1)}0`;
}
