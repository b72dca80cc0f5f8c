import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_MEDIA_TYPES,
  Base64SourceSchema,
  base64ToBytes,
  CairnError,
  type ContentPart,
  createAttachmentPart,
  definedFields,
  type FilePart,
  type ImagePart,
  type MessageContent,
} from '@cairn/core';
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { apiError } from '../http/api-error.js';
import type { ServerEnv } from '../server-env.js';

/** What a message's attachments may be. */
export interface AttachmentLimits {
  /** Largest total of one message's attachments, in bytes (default `ATTACHMENT_MAX_BYTES`, 20 MiB). */
  maxBytes: number;
  /** Media types allowed (default `ATTACHMENT_MEDIA_TYPES`). */
  mediaTypes: readonly string[];
}

export const DEFAULT_ATTACHMENT_LIMITS: AttachmentLimits = {
  maxBytes: ATTACHMENT_MAX_BYTES,
  mediaTypes: ATTACHMENT_MEDIA_TYPES,
};

const MAX_TEXT = 100_000;
const MAX_PARTS = 20;
const MAX_FILE_NAME = 255;

const MessageTextSchema = z
  .string()
  .min(1)
  .max(MAX_TEXT)
  .refine((text) => text.trim() !== '', 'must not be blank');

const uploadSchema = <T extends 'image' | 'file'>(type: T) =>
  z.object({
    type: z.literal(type),
    mediaType: z
      .string()
      .min(1)
      .max(255)
      .openapi({ example: type === 'image' ? 'image/png' : 'application/pdf' }),
    source: Base64SourceSchema,
    fileName: z.string().min(1).max(MAX_FILE_NAME).optional(),
  });

/** A part of a posted message: text, or an image or file with its bytes inline as base64. */
export const UploadPartSchema = z
  .union([
    z.object({ type: z.literal('text'), text: z.string().max(MAX_TEXT) }),
    uploadSchema('image'),
    uploadSchema('file'),
  ])
  .openapi('UploadPart');

export const PostMessageBodySchema = z
  .object({
    content: z.union([MessageTextSchema, z.array(UploadPartSchema).min(1).max(MAX_PARTS)]).openapi({
      description:
        'The message: text, or parts in order — text, and images and files as base64 (`source: { type: "base64", data }`). ' +
        'Attachments are checked: their total size (413), media type against the allowlist (415), bytes against the media type, no SVG with script, not empty (400).',
    }),
  })
  .openapi('PostMessageRequest');

export type PostMessageBody = z.infer<typeof PostMessageBodySchema>;

/** The multipart form of a posted message, as documented (files are read by `readMessageContent`). */
export const PostMessageFormSchema = {
  type: 'object' as const,
  properties: {
    content: { type: 'string' as const, description: 'The text of the message' },
    file: {
      type: 'array' as const,
      items: { type: 'string' as const, format: 'binary' },
      description: 'Attachments (repeat the field), sent after the text in order',
    },
  },
};

type Upload = { bytes: Uint8Array; fileName: string; mediaType?: string };

/** A refused attachment, ready to answer: 413 over the size limit, 415 a type not allowed, else 400. */
function refusal(c: Context<ServerEnv>, error: CairnError): Response {
  const reason = error.details?.reason;
  if (error.code === 'UNSUPPORTED_CONTENT' && reason === 'size')
    return apiError(c, 413, 'PAYLOAD_TOO_LARGE', error.message);
  if (error.code === 'UNSUPPORTED_CONTENT') return apiError(c, 415, 'UNSUPPORTED_CONTENT', error.message);
  return apiError(
    c,
    400,
    error.code === 'INVALID_MESSAGE' ? 'INVALID_MESSAGE' : 'INVALID_ARGUMENT',
    error.message,
  );
}

/**
 * Every attachment checked (`createAttachmentPart`: size, allowlist, bytes matching the type, no SVG
 * with script) and their total against `maxBytes`, before the turn starts, so a refused message
 * stores nothing.
 */
function checkedParts(uploads: readonly Upload[], limits: AttachmentLimits): (ImagePart | FilePart)[] {
  const total = uploads.reduce((sum, upload) => sum + upload.bytes.length, 0);
  if (total > limits.maxBytes) {
    throw new CairnError(
      'UNSUPPORTED_CONTENT',
      `the attachments total ${total} bytes, over the ${limits.maxBytes}-byte limit`,
      { details: { reason: 'size', size: total, maxBytes: limits.maxBytes } },
    );
  }
  return uploads.map((upload) =>
    createAttachmentPart(upload.bytes, {
      fileName: upload.fileName,
      maxBytes: limits.maxBytes,
      allowedMediaTypes: limits.mediaTypes,
      ...definedFields({ mediaType: upload.mediaType }),
    }),
  );
}

// A browser sends `application/octet-stream` (or nothing) for a type it does not know: the bytes or
// the file name say what it is then.
const declaredType = (type: string) =>
  type === '' || type === 'application/octet-stream' ? undefined : type.split(';')[0]?.trim().toLowerCase();

async function fromForm(c: Context<ServerEnv>, limits: AttachmentLimits): Promise<MessageContent> {
  const form = await c.req.formData().catch(() => {
    throw new CairnError('INVALID_ARGUMENT', 'the body is not valid multipart/form-data');
  });
  const text = form.get('content');
  if (text !== null && typeof text !== 'string') {
    throw new CairnError('INVALID_ARGUMENT', 'body.content: must be a text field, not a file');
  }
  const files = form.getAll('file');
  if (files.length > MAX_PARTS)
    throw new CairnError('INVALID_ARGUMENT', `body.file: at most ${MAX_PARTS} files`);
  const uploads: Upload[] = [];
  for (const [index, file] of files.entries()) {
    if (typeof file === 'string')
      throw new CairnError('INVALID_ARGUMENT', `body.file[${index}]: must be a file`);
    if (file.name.length > MAX_FILE_NAME) {
      throw new CairnError(
        'INVALID_ARGUMENT',
        `body.file[${index}]: the file name is over ${MAX_FILE_NAME} characters`,
      );
    }
    const mediaType = declaredType(file.type);
    uploads.push({
      bytes: new Uint8Array(await file.arrayBuffer()),
      fileName: file.name === '' ? `attachment-${index + 1}` : file.name,
      ...definedFields({ mediaType }),
    });
  }
  const hasText = text !== null && text.trim() !== '';
  if (hasText && text.length > MAX_TEXT) {
    throw new CairnError('INVALID_ARGUMENT', `body.content: at most ${MAX_TEXT} characters`);
  }
  if (!hasText && uploads.length === 0) {
    throw new CairnError('INVALID_ARGUMENT', 'body: give a content text field, a file, or both');
  }
  const parts = checkedParts(uploads, limits);
  if (parts.length === 0) return text as string;
  return [...(hasText ? [{ type: 'text' as const, text }] : []), ...parts];
}

function fromJson(body: PostMessageBody, limits: AttachmentLimits): MessageContent {
  if (typeof body.content === 'string') return body.content;
  const uploads: Upload[] = [];
  body.content.forEach((part, index) => {
    if (part.type === 'text') return;
    uploads.push({
      bytes: base64ToBytes(part.source.data),
      fileName: part.fileName ?? `attachment-${index + 1}`,
      mediaType: part.mediaType,
    });
  });
  const checked = checkedParts(uploads, limits);
  let next = 0;
  const content: ContentPart[] = body.content.map((part) =>
    part.type === 'text' ? part : (checked[next++] as ContentPart),
  );
  if (
    !content.some(
      (part) => part.type !== 'text' || (typeof part.text === 'string' && part.text.trim() !== ''),
    )
  ) {
    throw new CairnError('INVALID_ARGUMENT', 'body.content: must not be blank');
  }
  return content;
}

/**
 * The content of a posted message, from JSON (text, or parts with base64 bytes) or from
 * `multipart/form-data` (a `content` text field and `file` fields), every attachment checked; or
 * the error answer (400, 413, 415) when one is refused.
 */
export async function readMessageContent(
  c: Context<ServerEnv>,
  json: PostMessageBody | Record<string, never>,
  limits: AttachmentLimits,
): Promise<{ content: MessageContent } | { refused: Response }> {
  try {
    const multipart = /^multipart\/form-data/i.test(c.req.header('content-type') ?? '');
    if (!multipart && !('content' in json)) {
      throw new CairnError(
        'INVALID_ARGUMENT',
        'body: send application/json with content, or multipart/form-data',
      );
    }
    const content = multipart ? await fromForm(c, limits) : fromJson(json as PostMessageBody, limits);
    return { content };
  } catch (error) {
    if (!CairnError.is(error)) throw error;
    return { refused: refusal(c, error) };
  }
}
