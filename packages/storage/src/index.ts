// Kept here for existing imports; it lives in core beside the other tool-output limits.
export { fullOutputMarker } from '@cairn/core';
export { assertNewMessageIds } from './append/message-ids.js';
export {
  assertExpectedSeq,
  assignSeqs,
  type PreparedMessage,
  prepareAppend,
  replayIdempotentAppend,
} from './append/prepare-append.js';
export { attachmentRef, isAttachmentRef } from './attachments/attachment-ref.js';
export { hasInlineMedia, offloadContentParts } from './attachments/offload-parts.js';
export { type BlobReader, readPartBytes, resolveContentParts } from './attachments/resolve-content-parts.js';
export { normalizeBlobRange, sliceBlob, toBlobBytes } from './blob/blob-bytes.js';
export { decodeBlobText, encodeBlobText } from './blob/blob-text.js';
export { blobPrefixEnd, conversationBlobPrefixes } from './blob/conversation-blob-prefixes.js';
export { appendConversationMessage, loadConversationMessages } from './conversation-messages.js';
export { type HeldLeaseOperations, heldLease } from './lease/held-lease.js';
export {
  assertLeaseKey,
  type LeaseRequest,
  MAX_LEASE_OWNER_LENGTH,
  MAX_LEASE_TTL_MS,
  MIN_LEASE_TTL_MS,
  normalizeLeaseRequest,
} from './lease/lease-request.js';
export { acquiredEpoch, isRenewable, type LeaseRow, RELEASED_LEASE_OWNER } from './lease/lease-rules.js';
export {
  conversationMatchesSearch,
  foldSearchText,
  isSearchedMessage,
  likeContainsPattern,
  messageMatchesSearch,
} from './list/conversation-search.js';
export {
  type AppendedTitle,
  deriveConversationTitle,
  nextConversationTitle,
  type TitledMessage,
  titleOfAppend,
} from './list/conversation-title.js';
export {
  compareSummaries,
  DEFAULT_LIST_LIMIT,
  decodeListCursor,
  encodeListCursor,
  type ListCursor,
  MAX_LIST_LIMIT,
  type NormalizedListOptions,
  normalizeListOptions,
  paginateMatchingSummaries,
  paginateSummaries,
} from './list/list-cursor.js';
export {
  type NormalizedLoadOptions,
  normalizeLoadOptions,
  selectRange,
} from './load/normalize-load-options.js';
export {
  createMemoryConversationStore,
  MemoryConversationStore,
} from './memory/memory-conversation-store.js';
export { MemoryLeaseStore } from './memory/memory-lease-store.js';
export { collectBlobs, type PendingBlob } from './offload/collect-blobs.js';
export {
  type BlobWriter,
  prepareToolMessageForStorage,
  toolOutputRef,
} from './offload/prepare-tool-message-for-storage.js';
export { readFullToolOutput } from './offload/read-full-tool-output.js';
