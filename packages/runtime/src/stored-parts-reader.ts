import { type ConversationStore, isMediaPart, type ModelMessage } from '@cairn/core';
import { resolveContentParts } from '@cairn/storage';

const hasStoredParts = (message: ModelMessage): boolean =>
  Array.isArray(message.content) &&
  message.content.some((part) => isMediaPart(part) && part.source.type === 'blob');

/**
 * The loop's `prepareMessages` for one turn: each model call's request with the stored parts'
 * bytes (`blob` sources) read back inline. It runs after compression, so a part compression left
 * out is never read; a message is read once per turn, however many model calls send it. A blob
 * gone from the store is `STORE_NOT_FOUND` naming the part: the turn fails with it, stored.
 */
export function storedPartsReader(
  store: Pick<ConversationStore, 'getBlob'>,
  conversationId: string,
): (messages: ModelMessage[]) => Promise<ModelMessage[]> {
  const read = new WeakMap<ModelMessage, ModelMessage>();
  return async (messages) => {
    const pending = messages.filter((message) => !read.has(message) && hasStoredParts(message));
    if (pending.length > 0) {
      const resolved = await resolveContentParts(store, conversationId, pending);
      for (const [index, message] of pending.entries()) read.set(message, resolved[index] as ModelMessage);
    }
    return messages.map((message) => read.get(message) ?? message);
  };
}
