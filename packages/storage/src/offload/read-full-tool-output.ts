import type { ConversationMessage, ConversationStore } from '@cairn/core';

/**
 * The complete content of a message: the offloaded output when `fullOutputPath` is set, otherwise
 * the inline content. Fails with `STORE_NOT_FOUND` when the blob is gone.
 */
export async function readFullToolOutput(
  store: Pick<ConversationStore, 'getBlob'>,
  message: ConversationMessage,
): Promise<string | null> {
  if (message.fullOutputPath === undefined) return message.content ?? null;
  return Buffer.from(await store.getBlob(message.fullOutputPath)).toString('utf8');
}
