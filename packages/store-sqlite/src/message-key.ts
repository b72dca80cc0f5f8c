import { CairnError } from '@cairn/core';

// A message's rowid is `(num << 32) | seq`, computed in SQL: the conversation's number in the high
// bits, its seq in the low 32. One conversation's messages are then one contiguous rowid range.

/** The largest seq a key holds (its low 32 bits). */
export const MAX_SEQ = 2 ** 32 - 1;

/** The largest conversation number: 31 bits above the seq keep a key a positive 64-bit integer. */
export const MAX_CONVERSATION_NUM = 2 ** 31 - 1;

/** Throws a non-retryable `STORE_UNAVAILABLE` when an append would take a conversation past `MAX_SEQ`. */
export function assertSeqFits(conversationId: string, newLastSeq: number): void {
  if (newLastSeq <= MAX_SEQ) return;
  throw new CairnError(
    'STORE_UNAVAILABLE',
    `Conversation ${conversationId} would pass seq ${MAX_SEQ}, the most @cairn/store-sqlite stores: start a new conversation`,
    { retryable: false, details: { conversationId, newLastSeq, maxSeq: MAX_SEQ } },
  );
}

/**
 * Throws a non-retryable `STORE_UNAVAILABLE` when SQLite numbered a new conversation past
 * `MAX_CONVERSATION_NUM` (it takes one past the highest number in use).
 */
export function assertConversationNumFits(conversationId: string, num: number): void {
  if (num <= MAX_CONVERSATION_NUM) return;
  throw new CairnError(
    'STORE_UNAVAILABLE',
    `No number is left for conversation ${conversationId}: the database already uses ${MAX_CONVERSATION_NUM}, the highest @cairn/store-sqlite keys`,
    { retryable: false, details: { conversationId, num, maxNum: MAX_CONVERSATION_NUM } },
  );
}
