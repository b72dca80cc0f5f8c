import { CairnError, definedFields } from '@cairn/core';
import { classifyError } from '@cairn/provider-utils';

export interface GeminiErrorContext {
  /** The caller's signal: an abort it asked for is `LLM_ABORTED`. */
  signal?: AbortSignal;
  /** The adapter's own `timeoutMs` timer fired. */
  timedOut?: boolean;
}

const PROVIDER = 'gemini';
const RETRY_INFO_TYPE = 'type.googleapis.com/google.rpc.RetryInfo';
// @google/generative-ai replaces a failed body read (a connection cut mid-stream) with this
// message, dropping the network error it came from.
const STREAM_READ_FAILURE = /Error reading from the stream/;

/**
 * `classifyError` plus what only the Gemini SDK needs: its fetch error carries no response
 * headers, so a 429's delay comes from the body's `RetryInfo` detail (`retryDelay: "37s"`); a cut
 * stream surfaces as a generic SDK error; and the SDK's own abort cannot tell the adapter's timeout
 * from the caller's abort.
 */
export function classifyGeminiError(
  error: unknown,
  { signal, timedOut }: GeminiErrorContext = {},
): CairnError {
  if (CairnError.is(error)) return error;
  const details = { provider: PROVIDER };
  if (timedOut === true && signal?.aborted !== true) {
    return new CairnError('LLM_TIMEOUT', `${PROVIDER}: the response took longer than the timeout`, {
      cause: error,
      details,
    });
  }
  if (signal?.aborted !== true && error instanceof Error && STREAM_READ_FAILURE.test(error.message)) {
    return new CairnError('LLM_UNAVAILABLE', `${PROVIDER}: ${error.message}`, { cause: error, details });
  }
  const classified = classifyError(error, {
    provider: PROVIDER,
    ...definedFields({ signal }),
  });
  const retryAfterMs = classified.retryAfterMs ?? retryDelayMs(error);
  if (retryAfterMs === classified.retryAfterMs || !classified.retryable) return classified;
  return new CairnError(classified.code, classified.message, {
    cause: error,
    retryAfterMs,
    ...definedFields({ details: classified.details }),
  });
}

/** The `RetryInfo` delay of a Gemini error's `details` (a protobuf Duration such as `"1.5s"`), in ms. */
function retryDelayMs(error: unknown): number | undefined {
  const errorDetails = (error as { errorDetails?: unknown } | null)?.errorDetails;
  if (!Array.isArray(errorDetails)) return undefined;
  for (const detail of errorDetails) {
    if (detail?.['@type'] !== RETRY_INFO_TYPE || typeof detail.retryDelay !== 'string') continue;
    const seconds = /^(\d+(?:\.\d+)?)s$/.exec(detail.retryDelay)?.[1];
    if (seconds !== undefined) return Math.ceil(Number(seconds) * 1000);
  }
  return undefined;
}
