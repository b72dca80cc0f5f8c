import {
  bytesToBase64,
  CairnError,
  type ContentPart,
  type ConversationStore,
  isMediaPart,
  type MediaPart,
  type ModelMessage,
} from '@cairn/core';
import { attachmentRef } from './attachment-ref.js';

/** The blob half of a store that reading parts back needs. */
export type BlobReader = Pick<ConversationStore, 'getBlob'>;

/**
 * The bytes of a media part: inline ones decoded, stored ones read from the store. A stored blob
 * that is gone is `STORE_NOT_FOUND` naming the conversation and the part; a URL part has no bytes
 * here (`INVALID_ARGUMENT`).
 */
export async function readPartBytes(
  store: BlobReader,
  conversationId: string,
  part: MediaPart,
): Promise<Uint8Array> {
  const { source } = part;
  if (source.type === 'base64') return Uint8Array.from(Buffer.from(source.data, 'base64'));
  if (source.type === 'url') {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `The ${part.type} part is a URL (${source.url}); it has no stored bytes`,
    );
  }
  try {
    return await store.getBlob(attachmentRef(conversationId, source.sha256));
  } catch (error) {
    if (!(error instanceof CairnError) || error.code !== 'STORE_NOT_FOUND') throw error;
    throw new CairnError(
      'STORE_NOT_FOUND',
      `The bytes of ${part.type} ${part.fileName ?? source.sha256.slice(0, 12)} in conversation ${conversationId} are missing from the store`,
      { details: { conversationId, sha256: source.sha256, mediaType: part.mediaType }, cause: error },
    );
  }
}

async function resolvePart(
  store: BlobReader,
  conversationId: string,
  part: ContentPart,
): Promise<ContentPart> {
  if (!isMediaPart(part) || part.source.type !== 'blob') return part;
  const bytes = await readPartBytes(store, conversationId, part);
  return { ...part, source: { type: 'base64', data: bytesToBase64(bytes) } };
}

/**
 * The messages with every stored part's bytes read back inline (`base64`), ready for an adapter.
 * Messages without stored parts are returned as they are; each blob is read once per call.
 */
export async function resolveContentParts<M extends ModelMessage>(
  store: BlobReader,
  conversationId: string,
  messages: readonly M[],
): Promise<M[]> {
  const cache = new Map<string, Promise<ContentPart>>();
  return Promise.all(
    messages.map(async (message) => {
      if (typeof message.content !== 'string' && Array.isArray(message.content)) {
        const content = await Promise.all(
          message.content.map((part) => {
            if (!isMediaPart(part) || part.source.type !== 'blob') return part;
            const key = `${part.source.sha256}:${part.mediaType}:${part.fileName ?? ''}`;
            let resolved = cache.get(key);
            if (resolved === undefined) {
              resolved = resolvePart(store, conversationId, part);
              cache.set(key, resolved);
            }
            return resolved;
          }),
        );
        return { ...message, content };
      }
      return message;
    }),
  );
}
