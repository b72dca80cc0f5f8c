import { createHash } from 'node:crypto';
import {
  assertMediaBytes,
  base64ByteLength,
  base64ToBytes,
  type ContentPart,
  type ConversationMessage,
  INLINE_DATA_LIMIT,
  isMediaPart,
} from '@cairn/core';
import type { BlobWriter } from '../offload/prepare-tool-message-for-storage.js';
import { attachmentRef } from './attachment-ref.js';

/** Whether `message` holds a media part with inline (`base64`) bytes. */
export function hasInlineMedia(message: ConversationMessage): boolean {
  return (
    Array.isArray(message.content) &&
    message.content.some((part) => isMediaPart(part) && part.source.type === 'base64')
  );
}

/**
 * The message with every inline media part checked (its bytes match its media type, not empty, no
 * SVG with script) and, above `INLINE_DATA_LIMIT` bytes, its bytes moved to `blobs` under
 * `attachmentRef` and replaced by a `blob` source (SHA-256 and size). Called before a store takes
 * its lock, so hashing a 20 MB image holds no lock. `INVALID_MESSAGE` names the bad part.
 */
export async function offloadContentParts(
  blobs: BlobWriter,
  conversationId: string,
  message: ConversationMessage,
): Promise<ConversationMessage> {
  if (!hasInlineMedia(message)) return message;
  const parts = message.content as ContentPart[];
  const stored: ContentPart[] = [];
  for (const [index, part] of parts.entries()) {
    if (!isMediaPart(part) || part.source.type !== 'base64') {
      stored.push(part);
      continue;
    }
    const bytes = base64ToBytes(part.source.data);
    assertMediaBytes(part.mediaType, bytes, `Message ${message.id} part ${index}`);
    if (base64ByteLength(part.source.data) <= INLINE_DATA_LIMIT) {
      stored.push(part);
      continue;
    }
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    await blobs.putBlob(attachmentRef(conversationId, sha256), bytes);
    stored.push({ ...part, source: { type: 'blob', sha256, size: bytes.length } });
  }
  return { ...message, content: stored };
}
