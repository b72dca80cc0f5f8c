import { CairnError, definedFields } from '@cairn/core';
import { classifyError, classifyHttpError } from '@cairn/provider-utils';

export interface GeminiErrorContext {
  /** The caller's signal: an abort it asked for is `LLM_ABORTED`. */
  signal?: AbortSignal;
  /** The adapter's own `timeoutMs` timer fired. */
  timedOut?: boolean;
  /** The stream event the SDK could not parse, as it came (see `createGeminiStreamTail`). */
  malformedData?: string;
}

const PROVIDER = 'gemini';
const RETRY_INFO_TYPE = 'type.googleapis.com/google.rpc.RetryInfo';

/** Google's error JSON: `{ error: { code, message, status, details } }`. */
interface GoogleErrorBody {
  code?: unknown;
  message?: unknown;
  status?: unknown;
  details?: unknown;
}

/**
 * `classifyError` plus what only `@google/genai` needs: its `ApiError` carries the HTTP status and,
 * as its message, the error JSON (after `got status: …` for an error inside a stream) — no headers,
 * so a 429's delay comes from the body's `RetryInfo` detail (`retryDelay: "37s"`); a malformed
 * stream line is a bare SyntaxError; and an abort cannot tell the adapter's timeout from the
 * caller's.
 */
export function classifyGeminiError(
  error: unknown,
  { signal, timedOut, malformedData }: GeminiErrorContext = {},
): CairnError {
  if (CairnError.is(error)) return error;
  if (timedOut === true && signal?.aborted !== true) {
    return new CairnError('LLM_TIMEOUT', `${PROVIDER}: the response took longer than the timeout`, {
      cause: error,
      details: { provider: PROVIDER },
    });
  }
  // The SDK parses each chunk with `Response.json()`: its SyntaxError is a malformed answer.
  if (error instanceof SyntaxError && signal?.aborted !== true) {
    return new CairnError('LLM_BAD_RESPONSE', `${PROVIDER}: ${error.message}`, {
      cause: error,
      details: { provider: PROVIDER, ...definedFields({ raw: malformedData }) },
    });
  }
  const apiError = signal?.aborted === true ? undefined : readApiError(error);
  if (apiError === undefined)
    return classifyError(error, { provider: PROVIDER, ...definedFields({ signal }) });
  const classified = classifyHttpError({
    status: apiError.status,
    provider: PROVIDER,
    body: apiError.body,
    message: typeof apiError.body?.message === 'string' ? apiError.body.message : messageOf(error),
    cause: error,
  });
  const retryAfterMs = retryDelayMs(apiError.body?.details);
  if (retryAfterMs === undefined || !classified.retryable) return classified;
  return new CairnError(classified.code, classified.message, {
    cause: error,
    retryAfterMs,
    ...definedFields({ details: classified.details }),
  });
}

/** The status and error JSON of the SDK's `ApiError` (anything with a numeric HTTP status). */
function readApiError(error: unknown): { status: number; body: GoogleErrorBody | undefined } | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status !== 'number' || status < 100) return undefined;
  const message = messageOf(error);
  const json = message.slice(Math.max(0, message.indexOf('{')));
  try {
    const parsed = JSON.parse(json) as { error?: GoogleErrorBody } | null;
    return { status, body: typeof parsed?.error === 'object' ? parsed.error : undefined };
  } catch {
    return { status, body: undefined };
  }
}

/** The `RetryInfo` delay of a Gemini error's `details` (a protobuf Duration such as `"1.5s"`), in ms. */
function retryDelayMs(details: unknown): number | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    if (detail?.['@type'] !== RETRY_INFO_TYPE || typeof detail.retryDelay !== 'string') continue;
    const seconds = /^(\d+(?:\.\d+)?)s$/.exec(detail.retryDelay)?.[1];
    if (seconds !== undefined) return Math.ceil(Number(seconds) * 1000);
  }
  return undefined;
}

function messageOf(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(error);
}
