import { type ConversationStore, isMediaPart, type MediaPart } from '@cairn/core';
import { readPartBytes } from '@cairn/storage';
import { createRoute, z } from '@hono/zod-openapi';
import { apiError, errorResponse } from '../http/api-error.js';
import { ConversationParamsSchema } from '../http/api-schemas.js';
import type { RouteDeps } from '../route-deps.js';
import type { ServerApp } from '../server-env.js';

const AttachmentParamsSchema = ConversationParamsSchema.extend({
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 in lower-case hex')
    .openapi({
      param: { name: 'sha256', in: 'path' },
      example: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    }),
});

const getAttachmentRoute = createRoute({
  method: 'get',
  path: '/v1/conversations/{id}/attachments/{sha256}',
  summary: 'The bytes of a stored image or file part of the conversation',
  description:
    'A part whose bytes the store keeps (its `source` is `{ type: "blob", sha256, size }`), with its media ' +
    'type; images are `inline`, anything else an `attachment` download. Content-addressed, so cached for good.',
  request: { params: AttachmentParamsSchema },
  responses: {
    200: {
      description: 'The bytes',
      content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } },
    },
    304: { description: 'Not modified (`If-None-Match` named it)' },
    400: errorResponse('Invalid id or hash'),
    404: errorResponse('No such conversation, or no stored part with that hash in it'),
  },
});

// Shown in the page: raster images only. An SVG (from a tool or a converter) is a page a browser runs.
const INLINE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** `Content-Disposition` with the file name as typed (RFC 6266 / 5987) and a plain ASCII fallback. */
function disposition(part: MediaPart): string {
  const kind = INLINE_TYPES.has(part.mediaType) ? 'inline' : 'attachment';
  if (part.fileName === undefined) return kind;
  const ascii = part.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(part.fileName)}`;
}

/** The first part of the conversation holding the blob `sha256` (its media type and name go out with it). */
async function findStoredPart(
  store: ConversationStore,
  conversationId: string,
  sha256: string,
): Promise<MediaPart | undefined> {
  for (const message of await store.load(conversationId)) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content) {
      if (isMediaPart(part) && part.source.type === 'blob' && part.source.sha256 === sha256) return part;
    }
  }
  return undefined;
}

export type AttachmentRouteDeps = Pick<RouteDeps, 'store'>;

/** Serving a stored part's bytes, behind the same token as the conversation (every /v1 route's). */
export function registerAttachmentRoutes(app: ServerApp, deps: AttachmentRouteDeps): void {
  app.openapi(getAttachmentRoute, async (c) => {
    const { id, sha256 } = c.req.valid('param');
    const part = await findStoredPart(deps.store, id, sha256);
    if (part === undefined)
      return apiError(c, 404, 'STORE_NOT_FOUND', 'no stored part with that hash in the conversation');
    const etag = `"${sha256}"`;
    const headers = {
      'Cache-Control': 'private, max-age=31536000, immutable',
      ETag: etag,
      'X-Content-Type-Options': 'nosniff',
      // Opened directly, the bytes may not run anything.
      'Content-Security-Policy': "default-src 'none'; sandbox",
    };
    if (
      c.req
        .header('if-none-match')
        ?.split(',')
        .some((tag) => tag.trim() === etag)
    ) {
      return c.body(null, 304, headers) as never;
    }
    const bytes = await readPartBytes(deps.store, id, part);
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      ...headers,
      'Content-Type': part.mediaType,
      'Content-Length': String(bytes.byteLength),
      'Content-Disposition': disposition(part),
    }) as never;
  });
}
