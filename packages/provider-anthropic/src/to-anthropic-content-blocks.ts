import type {
  DocumentBlockParam,
  ImageBlockParam,
  TextBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import {
  base64ToBytes,
  CairnError,
  type ContentPart,
  type FilePart,
  type ImagePart,
  isMediaPart,
  isTextPart,
  type MessageContent,
} from '@cairn/core';

/** What a user turn or a tool result may hold: text, images and documents. */
export type AnthropicMediaBlock = TextBlockParam | ImageBlockParam | DocumentBlockParam;

/** Image types the Messages API takes (`Base64ImageSource.media_type`). */
export const ANTHROPIC_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;

/**
 * Media types of parts the adapter maps: the four image types, PDFs (base64 or URL) and plain
 * text documents (inline only; sent as a `text` document source).
 */
export const ANTHROPIC_INPUT_MEDIA_TYPES: readonly string[] = [
  ...ANTHROPIC_IMAGE_TYPES,
  'application/pdf',
  'text/plain',
];

type ImageMediaType = (typeof ANTHROPIC_IMAGE_TYPES)[number];
const isImageType = (value: string): value is ImageMediaType =>
  (ANTHROPIC_IMAGE_TYPES as readonly string[]).includes(value);

function unsupported(where: string, part: ContentPart, problem: string): CairnError {
  return new CairnError('UNSUPPORTED_CONTENT', `anthropic: ${where}: ${problem}`, {
    details: {
      provider: 'anthropic',
      partType: part.type,
      mediaType: isMediaPart(part) ? part.mediaType : null,
      accepted: [...ANTHROPIC_INPUT_MEDIA_TYPES],
    },
  });
}

// A blob source means the caller skipped `resolveContentParts`: the bytes are in the store.
function unresolved(where: string, part: ImagePart | FilePart): CairnError {
  const sha = part.source.type === 'blob' ? part.source.sha256.slice(0, 12) : '';
  return new CairnError(
    'INVALID_MESSAGE',
    `anthropic: ${where}: the ${part.type} part's bytes are in the store (blob ${sha}…); read them first with @cairn/storage's resolveContentParts`,
    { details: { provider: 'anthropic', partType: part.type } },
  );
}

function imageBlock(part: ImagePart, where: string): ImageBlockParam {
  const { source, mediaType } = part;
  if (source.type === 'blob') throw unresolved(where, part);
  if (source.type === 'url') return { type: 'image', source: { type: 'url', url: source.url } };
  if (!isImageType(mediaType)) {
    throw unsupported(
      where,
      part,
      `cannot take ${mediaType} images; it takes ${ANTHROPIC_IMAGE_TYPES.join(', ')}`,
    );
  }
  return { type: 'image', source: { type: 'base64', media_type: mediaType, data: source.data } };
}

function documentBlock(part: FilePart, where: string): DocumentBlockParam {
  const { source, mediaType } = part;
  if (source.type === 'blob') throw unresolved(where, part);
  const title = part.fileName === undefined ? {} : { title: part.fileName };
  if (mediaType === 'application/pdf') {
    const pdf =
      source.type === 'url'
        ? { type: 'url' as const, url: source.url }
        : { type: 'base64' as const, media_type: 'application/pdf' as const, data: source.data };
    return { type: 'document', source: pdf, ...title };
  }
  if (mediaType === 'text/plain') {
    if (source.type === 'url') {
      throw unsupported(where, part, 'takes text documents inline only, not by URL (PDFs may be URLs)');
    }
    const text = new TextDecoder().decode(base64ToBytes(source.data));
    return { type: 'document', source: { type: 'text', media_type: 'text/plain', data: text }, ...title };
  }
  throw unsupported(
    where,
    part,
    `cannot take ${mediaType} documents; it takes application/pdf and text/plain`,
  );
}

/**
 * A user message's or tool result's content as Anthropic blocks: text parts as `text` (blank text
 * is left out, the API refuses it), images as `image` (base64 or URL source), PDFs as `document`
 * (base64 or URL) and plain text files as a `document` with a `text` source. The file name becomes
 * the document's `title`. A part type or media type the API cannot take is `UNSUPPORTED_CONTENT`;
 * `where` names the place in the error.
 */
export function toAnthropicContentBlocks(content: MessageContent, where: string): AnthropicMediaBlock[] {
  const parts: readonly ContentPart[] =
    typeof content === 'string' ? [{ type: 'text', text: content }] : content;
  const blocks: AnthropicMediaBlock[] = [];
  for (const part of parts) {
    if (isTextPart(part)) {
      if (part.text.trim() !== '') blocks.push({ type: 'text', text: part.text });
    } else if (part.type === 'image' && isMediaPart(part)) {
      blocks.push(imageBlock(part as ImagePart, where));
    } else if (part.type === 'file' && isMediaPart(part)) {
      blocks.push(documentBlock(part as FilePart, where));
    } else {
      throw unsupported(where, part, `cannot take a ${part.type} part`);
    }
  }
  return blocks;
}
