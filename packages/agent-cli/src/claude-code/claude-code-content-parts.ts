import {
  assertMediaBytes,
  type Base64Source,
  base64ToBytes,
  type ContentPart,
  type FilePart,
  FilePartSchema,
  type ImagePart,
  ImagePartSchema,
  imageSize,
  type JsonValue,
  validationIssues,
} from '@cairn/core';
import { isJsonObject, type JsonObject, stringOf } from './claude-code-event-context.js';

/** Content blocks of a Claude Code line as parts, and the blocks that are no part. */
export interface ClaudeCodeContentParts {
  /** Text, image and document blocks as parts, in order. */
  parts: ContentPart[];
  /** Whether a part is an image or a file (not only text). */
  hasMedia: boolean;
  /** Blocks that are no part (another block type, an odd source, bytes that are not their media type), kept whole. */
  unmapped: JsonValue[];
}

// A block's `base64` source with its `media_type` (the form Claude Code prints bytes in). A `url`
// source names no media type, which a part needs: such a block is kept unmapped.
function base64SourceOf(block: JsonObject): { mediaType: string; source: Base64Source } | undefined {
  const source = block.source;
  if (!isJsonObject(source) || source.type !== 'base64' || typeof source.data !== 'string') return undefined;
  const mediaType = stringOf(source.media_type);
  return mediaType === undefined ? undefined : { mediaType, source: { type: 'base64', data: source.data } };
}

// The bytes must be what the block says they are: a store refuses a part whose bytes do not match
// its media type, and the whole message would be refused with it.
function matchingBytes(mediaType: string, source: Base64Source): Uint8Array | undefined {
  const bytes = base64ToBytes(source.data);
  try {
    assertMediaBytes(mediaType, bytes, 'Claude Code content block');
  } catch {
    return undefined;
  }
  return bytes;
}

function imagePart(block: JsonObject): ImagePart | undefined {
  const found = base64SourceOf(block);
  if (found === undefined) return undefined;
  const part: ImagePart = { type: 'image', mediaType: found.mediaType, source: found.source };
  if (validationIssues(ImagePartSchema, part).length > 0) return undefined;
  const bytes = matchingBytes(part.mediaType, found.source);
  if (bytes === undefined) return undefined;
  // The pixel size, for summaries ("image 800×600") and token estimates.
  const size = imageSize(bytes);
  if (size !== undefined) {
    part.width = size.width;
    part.height = size.height;
  }
  return part;
}

// A file part of checked bytes (a document block's, a Read's PDF), named when a name is known.
function filePart(
  mediaType: string,
  source: Base64Source,
  fileName: string | undefined,
): FilePart | undefined {
  const part: FilePart = { type: 'file', mediaType, source };
  if (fileName !== undefined && fileName !== '') part.fileName = fileName;
  if (validationIssues(FilePartSchema, part).length > 0) return undefined;
  return matchingBytes(mediaType, source) === undefined ? undefined : part;
}

function documentPart(block: JsonObject): FilePart | undefined {
  const found = base64SourceOf(block);
  return found === undefined ? undefined : filePart(found.mediaType, found.source, stringOf(block.title));
}

/**
 * The PDF a Read returned, from the line's `tool_use_result` (`{ type: 'pdf', file: { filePath,
 * base64 } }`): Claude Code 2.1.197 prints the result's content as text ("PDF file read: …") and
 * sends the bytes to the model as a `document` block beside it, which stream-json does not print.
 */
export function claudeCodeReadPdfPart(structured: JsonValue | undefined): FilePart | undefined {
  if (!isJsonObject(structured) || structured.type !== 'pdf' || !isJsonObject(structured.file))
    return undefined;
  const { base64, filePath } = structured.file;
  if (typeof base64 !== 'string') return undefined;
  const fileName = typeof filePath === 'string' ? filePath.split(/[\\/]/).at(-1) : undefined;
  return filePart('application/pdf', { type: 'base64', data: base64 }, fileName);
}

function partOf(block: JsonValue): ContentPart | undefined {
  if (!isJsonObject(block)) return undefined;
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? { type: 'text', text: block.text } : undefined;
    case 'image':
      return imagePart(block);
    case 'document':
      return documentPart(block);
    default:
      return undefined;
  }
}

/**
 * The parts of content blocks as Claude Code prints them (a tool result's `content`, a user message's):
 * `text`, `image` and `document` blocks with a `base64` source whose bytes match its `media_type`
 * (the Read tool on a PNG, JPEG or PDF). The bytes stay inline; a store moves them to blobs.
 */
export function claudeCodeContentParts(blocks: readonly JsonValue[]): ClaudeCodeContentParts {
  const parts: ContentPart[] = [];
  const unmapped: JsonValue[] = [];
  let hasMedia = false;
  for (const block of blocks) {
    const part = partOf(block);
    if (part === undefined) {
      unmapped.push(block);
      continue;
    }
    if (part.type !== 'text') hasMedia = true;
    parts.push(part);
  }
  return { parts, hasMedia, unmapped };
}
