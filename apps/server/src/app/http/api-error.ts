import { CAIRN_ERROR_CODES, CairnError, type CairnErrorCode, definedFields } from '@cairn/core';
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ServerEnv } from '../server-env.js';

/** The codes of HTTP-only failures, beside the `CairnError` codes the server passes on. */
const HTTP_ERROR_CODES = [
  'UNAUTHORIZED',
  'NOT_FOUND',
  'PAYLOAD_TOO_LARGE',
  'TOO_MANY_TURNS',
  'TURN_RUNNING',
  'CONVERSATION_EXISTS',
  'UNSUPPORTED_MEDIA_TYPE',
  'SHUTTING_DOWN',
  'RATE_LIMITED',
  'AGENT_SESSIONS_DISABLED',
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
  UNSUPPORTED_OPERATION: 501,
  TOOL_INVALID_INPUT: 400,
  APPROVAL_NOT_FOUND: 404,
  APPROVAL_FORBIDDEN: 403,
  APPROVAL_ALREADY_DECIDED: 409,
  APPROVAL_EXPIRED: 410,
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
  return { status, code: error.code, message: publicMessage(error) };
}

// The backend's own words may name hosts, users or paths: only the code goes out for an outage.
const publicMessage = (error: CairnError) =>
  error.code === 'STORE_UNAVAILABLE' ? 'store unavailable' : error.message;

/**
 * A turn's failure as the client sees it (JSON result, SSE `done`): its code, retry advice and a
 * message that never carries the backend's words; `details` stay in the server's logs.
 */
export function publicTurnError(error: CairnError) {
  return {
    name: 'CairnError' as const,
    code: error.code,
    message: publicMessage(error),
    retryable: error.retryable,
    ...definedFields({ retryAfterMs: error.retryAfterMs }),
  };
}

/** Whether a turn's outcome must be kept from the client as it is (the error message holds the backend's words). */
export const isOutage = (error: CairnError | undefined) => error?.code === 'STORE_UNAVAILABLE';
