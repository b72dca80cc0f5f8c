import {
  assertSafeId,
  type ConversationMessage,
  type ConversationStore,
  fullOutputMarker,
  TOOL_OUTPUT_PREVIEW_LENGTH,
  TOOL_OUTPUT_THRESHOLD,
} from '@cairn/core';
import { encodeBlobText } from '../blob/blob-text.js';

/** The blob half of a store: all offloading needs. */
export type BlobWriter = Pick<ConversationStore, 'putBlob'>;

/** The store-relative reference of a tool message's full output. */
export function toolOutputRef(conversationId: string, messageId: string): string {
  assertSafeId('conversationId', conversationId);
  assertSafeId('message id', messageId);
  return `tool-results/${conversationId}/${messageId}.txt`;
}

// Cut at a code point boundary: a preview ending in half a surrogate pair is not valid UTF-8.
function previewOf(content: string): string {
  const cut = content.slice(0, TOOL_OUTPUT_PREVIEW_LENGTH);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/** Whether `message` is a tool output over `TOOL_OUTPUT_THRESHOLD` UTF-8 bytes (to be offloaded). */
export function needsOffloading(message: ConversationMessage): boolean {
  if (message.role !== 'tool' || typeof message.content !== 'string') return false;
  // A UTF-16 unit is at most 3 UTF-8 bytes: most outputs are known to fit without counting.
  const { content } = message;
  return (
    content.length * 3 > TOOL_OUTPUT_THRESHOLD && Buffer.byteLength(content, 'utf8') > TOOL_OUTPUT_THRESHOLD
  );
}

/**
 * Seed 7-2: a `tool` message whose content is over `TOOL_OUTPUT_THRESHOLD` UTF-8 bytes has its
 * full content written to the blob store first (as WTF-8 bytes, so lone surrogates survive); the
 * message keeps a preview, a marker naming the reference, and `fullOutputPath` (the store-relative
 * reference). Anything else is returned as is. Every Cairn store applies this in `append`, so
 * callers cannot forget it.
 */
export async function prepareToolMessageForStorage(
  blobs: BlobWriter,
  conversationId: string,
  message: ConversationMessage,
): Promise<ConversationMessage> {
  if (!needsOffloading(message)) return message;
  const content = message.content as string;
  const ref = toolOutputRef(conversationId, message.id);
  await blobs.putBlob(ref, encodeBlobText(content));
  return {
    ...message,
    content: previewOf(content) + fullOutputMarker(ref),
    fullOutputPath: ref,
  };
}
