import { z } from 'zod';

// A message's `content` is a string (every log written before parts existed) or an ordered list of
// parts. Bytes never sit in the log above `INLINE_DATA_LIMIT`: a store moves them to its blob storage
// on append and the part keeps a `blob` source (a SHA-256 and a size). Before a model request the
// bytes are read back (`@cairn/storage`'s `resolveContentParts`), so adapters see `base64` or `url`.

/** Largest inline `base64` source a store keeps in the log, in bytes of decoded data. */
export const INLINE_DATA_LIMIT = 4096;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Bytes given inline, base64 (standard alphabet, padded). */
export const Base64SourceSchema = z.object({
  type: z.literal('base64'),
  data: z
    .string()
    .min(1, 'base64 data is empty (a 0-byte file)')
    .refine((data) => data.length % 4 === 0 && BASE64.test(data), 'is not whole base64 (truncated?)'),
});

/** Bytes the provider fetches itself (an `https:` URL). */
export const UrlSourceSchema = z.object({
  type: z.literal('url'),
  url: z.url({ protocol: /^https?$/ }),
});

/** Bytes in the store's blob storage, content-addressed within the conversation. */
export const BlobSourceSchema = z.object({
  type: z.literal('blob'),
  /** SHA-256 of the bytes, lower-case hex: the blob's name (`attachmentRef`). */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** Byte count, so views and token estimates need not read the blob. */
  size: z.number().int().positive(),
});

export const PartSourceSchema = z.discriminatedUnion('type', [
  Base64SourceSchema,
  UrlSourceSchema,
  BlobSourceSchema,
]);

const MEDIA_TYPE = /^[a-z]+\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;
const mediaType = z.string().regex(MEDIA_TYPE, 'is not a media type (type/subtype, lower case)');

export const TextPartSchema = z.object({
  type: z.literal('text'),
  text: z.string(),
});

/** An image: `image/png`, `image/jpeg`, `image/gif` or `image/webp` are what every provider takes. */
export const ImagePartSchema = z.object({
  type: z.literal('image'),
  mediaType: mediaType.refine(
    (value) => value.startsWith('image/'),
    'an image part needs an image/* media type',
  ),
  source: PartSourceSchema,
  /** Pixel size when known (token estimates use it; a PNG's or JPEG's is read on append). */
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
  fileName: z.string().min(1).optional(),
});

/** A document or any other file: a PDF (`application/pdf`), plain text, CSV, … */
export const FilePartSchema = z.object({
  type: z.literal('file'),
  mediaType,
  source: PartSourceSchema,
  fileName: z.string().min(1).optional(),
});

const KNOWN_PART_TYPES: ReadonlySet<string> = new Set(['text', 'image', 'file']);

/**
 * A part of a type this version does not know (`audio`, added later): kept as written so a newer
 * writer's log stays readable. Adapters refuse it with `UNSUPPORTED_CONTENT`.
 */
export const OtherPartSchema = z
  .object({ type: z.string().min(1) })
  .passthrough()
  .refine((part) => !KNOWN_PART_TYPES.has(part.type), 'does not match its type');

export const ContentPartSchema = z.union([TextPartSchema, ImagePartSchema, FilePartSchema, OtherPartSchema]);

export type Base64Source = z.infer<typeof Base64SourceSchema>;
export type UrlSource = z.infer<typeof UrlSourceSchema>;
export type BlobSource = z.infer<typeof BlobSourceSchema>;
export type PartSource = z.infer<typeof PartSourceSchema>;
export type TextPart = z.infer<typeof TextPartSchema>;
export type ImagePart = z.infer<typeof ImagePartSchema>;
export type FilePart = z.infer<typeof FilePartSchema>;
/** A part of a type this version does not know. */
export type OtherPart = { type: string } & Record<string, unknown>;
export type ContentPart = TextPart | ImagePart | FilePart | OtherPart;
/** A part that carries bytes. */
export type MediaPart = ImagePart | FilePart;

/** `content` of a message: text, or parts in order. */
export const MessageContentSchema = z.union([z.string(), z.array(ContentPartSchema)]);
export type MessageContent = string | ContentPart[];

/** An image or file part (narrows away text and unknown parts). */
export function isMediaPart(part: ContentPart): part is MediaPart {
  return (part.type === 'image' || part.type === 'file') && typeof part.source === 'object';
}
