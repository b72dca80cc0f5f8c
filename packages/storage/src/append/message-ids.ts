import { CairnError } from '@cairn/core';

/**
 * Throws `INVALID_ARGUMENT` when a batch holds one message id twice: whatever the store holds, such
 * a batch could never be appended (ids are unique within a conversation).
 */
export function assertDistinctMessageIds(messages: readonly { id: string }[]): void {
  const seen = new Set<string>();
  for (const { id } of messages) {
    if (seen.has(id)) {
      throw new CairnError('INVALID_ARGUMENT', `The batch holds message id ${JSON.stringify(id)} twice`, {
        details: { messageId: id },
      });
    }
    seen.add(id);
  }
}

/**
 * Throws `STORE_CONFLICT` when a message of the batch has an id the conversation already holds;
 * `storedSeq` gives the `seq` of the stored message with that id, if there is one. A retry meant
 * to be safe passes the first append's `idempotencyKey`, which is replayed before this check.
 */
export function assertNewMessageIds(
  conversationId: string,
  messages: readonly { id: string }[],
  storedSeq: (messageId: string) => number | undefined,
): void {
  for (const { id } of messages) {
    const seq = storedSeq(id);
    if (seq === undefined) continue;
    throw new CairnError(
      'STORE_CONFLICT',
      `Conversation ${conversationId} already holds message id ${JSON.stringify(id)} (seq ${seq}): give a new message a new id, and retry an append with its idempotencyKey`,
      { details: { conversationId, messageId: id, seq } },
    );
  }
}
