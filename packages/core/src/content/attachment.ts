import { CairnError } from '../errors/cairn-error.js';
import { acceptsMediaType } from './assert-supported-parts.js';
import type { FilePart, ImagePart } from './content-part.js';
import { createContentPart } from './create-part.js';
import { assertMediaBytes, sniffMediaType } from './media-bytes.js';

// What a user may attach to a message (the CLI's --attach, the server's uploads, the web page): the
// images every provider takes, PDFs and plain-text documents. SVG is left out on purpose: no
// provider takes it as an image, and it is a page a browser runs.

/** Media types an attachment may have by default. */
export const ATTACHMENT_MEDIA_TYPES: readonly string[] = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/plain',
  'text/markdown',
  'text/csv',
  'application/json',
];

/** Largest attachment by default, in bytes (20 MiB: the most any provider takes inline). */
export const ATTACHMENT_MAX_BYTES = 20 * 1024 * 1024;

const MEDIA_TYPE_OF_EXTENSION: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  txt: 'text/plain',
  text: 'text/plain',
  log: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
  html: 'text/html',
  htm: 'text/html',
};

/** The media type a file name's extension names (`shot.PNG` → `image/png`), or `undefined`. */
export function mediaTypeFromFileName(fileName: string): string | undefined {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? undefined : MEDIA_TYPE_OF_EXTENSION[fileName.slice(dot + 1).toLowerCase()];
}

export interface AttachmentOptions {
  /** Shown in errors and kept on the part. */
  fileName: string;
  /** What the sender says the bytes are; else their signature, else the file name's extension. */
  mediaType?: string;
  /** Default `ATTACHMENT_MAX_BYTES`. */
  maxBytes?: number;
  /** Default `ATTACHMENT_MEDIA_TYPES`; `image/*` entries accept any image. */
  allowedMediaTypes?: readonly string[];
}

/**
 * A user's attachment as a content part (an image part for images, a file part otherwise), after
 * the checks every way in shares: not over `maxBytes` and of an allowed media type
 * (`UNSUPPORTED_CONTENT`, `details.reason` `size` or `mediaType`), not empty, bytes matching the
 * media type and no SVG with script (`INVALID_MESSAGE`). Every error names the file.
 */
export function createAttachmentPart(bytes: Uint8Array, options: AttachmentOptions): ImagePart | FilePart {
  const { fileName } = options;
  const maxBytes = options.maxBytes ?? ATTACHMENT_MAX_BYTES;
  const allowed = options.allowedMediaTypes ?? ATTACHMENT_MEDIA_TYPES;
  if (bytes.length > maxBytes) {
    throw new CairnError(
      'UNSUPPORTED_CONTENT',
      `${fileName}: ${bytes.length} bytes is over the ${maxBytes}-byte limit for an attachment`,
      { details: { reason: 'size', fileName, size: bytes.length, maxBytes } },
    );
  }
  const mediaType = options.mediaType ?? sniffMediaType(bytes) ?? mediaTypeFromFileName(fileName);
  if (mediaType === undefined) {
    throw new CairnError(
      'UNSUPPORTED_CONTENT',
      `${fileName}: unknown file type; attachments may be ${allowed.join(', ')}`,
      { details: { reason: 'mediaType', fileName, mediaType: null, allowed: [...allowed] } },
    );
  }
  // The bytes first: a PNG called a PDF, an empty file or an SVG with script is said as such.
  assertMediaBytes(mediaType, bytes, fileName);
  if (!acceptsMediaType(allowed, mediaType)) {
    throw new CairnError(
      'UNSUPPORTED_CONTENT',
      `${fileName}: ${mediaType} cannot be attached; attachments may be ${allowed.join(', ')}`,
      { details: { reason: 'mediaType', fileName, mediaType, allowed: [...allowed] } },
    );
  }
  return createContentPart(bytes, { mediaType, fileName });
}
