import { CAIRN_ERROR_CODES, CairnError, type CairnErrorCode } from '@cairn/core';
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ServerEnv } from './server-env.js';

/** The codes of HTTP-only failures, beside the `CairnError` codes the server passes on. */
const HTTP_ERROR_CODES = [
  'UNAUTHORIZED',
  'NOT_FOUND',
  'PAYLOAD_TOO_LARGE',
  'TOO_MANY_TURNS',
  'TURN_RUNNING',
  'CONVERSATION_EXISTS',
  'INTERNAL',
] as const;

export const ApiErrorCodeSchema = z.enum([...CAIRN_ERROR_CODES, ...HTTP_ERROR_CODES]);
export type ApiErrorCode = z.infer<typeof ApiErrorCodeSchema>;

export const ApiErrorSchema = z
  .object({ error: z.object({ code: ApiErrorCodeSchema, message: z.string() }) })
  .openapi('ApiError');

/** Every error answer: `{ error: { code, message } }`, never a stack trace. */
export function apiError<S extends ContentfulStatusCode>(
  c: Context<ServerEnv>,
  status: S,
  code: ApiErrorCode,
  message: string,
) {
  c.set('errorCode', code);
  return c.json({ error: { code, message } }, status);
}

/** An OpenAPI response entry for an error status. */
export function errorResponse(description: string) {
  return { description, content: { 'application/json': { schema: ApiErrorSchema } } };
}

// Store and validation failures the caller can act on; anything else is an internal error.
const STATUS_OF_CAIRN_CODE: Partial<Record<CairnErrorCode, ContentfulStatusCode>> = {
  INVALID_ID: 400,
  INVALID_ARGUMENT: 400,
  INVALID_MESSAGE: 400,
  STORE_NOT_FOUND: 404,
  STORE_CONFLICT: 409,
  STORE_UNAVAILABLE: 503,
};

export interface PublicError {
  status: ContentfulStatusCode;
  code: ApiErrorCode;
  message: string;
}

/** What a client may see of a thrown error: its status, code and message, or `INTERNAL` and nothing more. */
export function toPublicError(error: unknown): PublicError {
  const status = CairnError.is(error) ? STATUS_OF_CAIRN_CODE[error.code] : undefined;
  if (status === undefined || !CairnError.is(error)) {
    return { status: 500, code: 'INTERNAL', message: 'internal error' };
  }
  // The backend's own words may name hosts or paths: only the code goes out for an outage.
  const message = error.code === 'STORE_UNAVAILABLE' ? 'store unavailable' : error.message;
  return { status, code: error.code, message };
}
