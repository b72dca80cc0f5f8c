import { CairnError } from '../errors/cairn-error.js';
import { bytesToBase64 } from './base64.js';
import type { FilePart, ImagePart } from './content-part.js';
import { assertMediaBytes, imageSize, sniffMediaType } from './media-bytes.js';

export interface CreatePartOptions {
  /** The media type; read from the bytes when absent (PNG, JPEG, GIF, WebP, PDF). */
  mediaType?: string;
  fileName?: string;
}

function mediaTypeOf(bytes: Uint8Array, options: CreatePartOptions, what: string): string {
  const mediaType = options.mediaType ?? sniffMediaType(bytes);
  if (mediaType === undefined) {
    throw new CairnError('INVALID_MESSAGE', `${what}: give a mediaType; the bytes have no known signature`);
  }
  assertMediaBytes(mediaType, bytes, what);
  return mediaType;
}

/**
 * An image part from its bytes, checked (not empty, the media type matches the bytes) and with its
 * pixel size when the header gives it. The bytes go inline as base64; a store moves them to a blob
 * on append.
 */
export function createImagePart(bytes: Uint8Array, options: CreatePartOptions = {}): ImagePart {
  const what = `Image ${options.fileName ?? ''}`.trim();
  const mediaType = mediaTypeOf(bytes, options, what);
  if (!mediaType.startsWith('image/')) {
    throw new CairnError('INVALID_MESSAGE', `${what}: ${mediaType} is not an image; use createFilePart`);
  }
  const part: ImagePart = {
    type: 'image',
    mediaType,
    source: { type: 'base64', data: bytesToBase64(bytes) },
  };
  const size = imageSize(bytes);
  if (size !== undefined) Object.assign(part, size);
  if (options.fileName !== undefined) part.fileName = options.fileName;
  return part;
}

/** A file part (a PDF, a text file, …) from its bytes, checked like `createImagePart`. */
export function createFilePart(bytes: Uint8Array, options: CreatePartOptions = {}): FilePart {
  const mediaType = mediaTypeOf(bytes, options, `File ${options.fileName ?? ''}`.trim());
  const part: FilePart = { type: 'file', mediaType, source: { type: 'base64', data: bytesToBase64(bytes) } };
  if (options.fileName !== undefined) part.fileName = options.fileName;
  return part;
}

/** An image part for bytes of an image type, a file part for anything else. */
export function createContentPart(bytes: Uint8Array, options: CreatePartOptions = {}): ImagePart | FilePart {
  const mediaType = options.mediaType ?? sniffMediaType(bytes);
  return mediaType?.startsWith('image/') === true
    ? createImagePart(bytes, { ...options, mediaType })
    : createFilePart(bytes, options);
}
