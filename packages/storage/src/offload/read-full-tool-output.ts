import { type ConversationMessage, type ConversationStore, contentText } from '@cairn/core';
import { decodeBlobText } from '../blob/blob-text.js';

/**
 * The complete content of a message: the offloaded output when `fullOutputPath` is set, otherwise
 * the inline content (its text, for a message of parts), identical to what was appended (lone surrogates included). Fails with
 * `STORE_NOT_FOUND` when the blob is gone.
 */
export async function readFullToolOutput(
  store: Pick<ConversationStore, 'getBlob'>,
  message: ConversationMessage,
): Promise<string | null> {
  if (message.fullOutputPath === undefined) {
    return message.content === null || message.content === undefined ? null : contentText(message.content);
  }
  return decodeBlobText(await store.getBlob(message.fullOutputPath));
}
