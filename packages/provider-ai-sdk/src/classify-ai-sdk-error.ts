import { CairnError, type CairnErrorCode } from '@cairn/core';
import { classifyError, classifyHttpError, type HeadersLike } from '@cairn/provider-utils';

// The AI SDK's error classes, told apart by `name` (what its own `isInstance` checks besides a
// symbol): a provider of any version bundles its own `@ai-sdk/provider`, so `instanceof` cannot.
interface AiSdkErrorLike {
  name?: unknown;
  message?: unknown;
  statusCode?: unknown;
  responseHeaders?: unknown;
  responseBody?: unknown;
  data?: unknown;
  text?: unknown;
  value?: unknown;
  cause?: unknown;
}

// Errors of the AI SDK that are not about HTTP: what they mean for a Cairn caller.
const CODES: Readonly<Record<string, CairnErrorCode>> = {
  AI_LoadAPIKeyError: 'LLM_AUTH',
  AI_LoadSettingError: 'INVALID_ARGUMENT',
  AI_InvalidArgumentError: 'INVALID_ARGUMENT',
  AI_InvalidPromptError: 'INVALID_MESSAGE',
  AI_UnsupportedFunctionalityError: 'UNSUPPORTED_CONTENT',
  AI_InvalidResponseDataError: 'LLM_BAD_RESPONSE',
  AI_EmptyResponseBodyError: 'LLM_BAD_RESPONSE',
  AI_NoContentGeneratedError: 'LLM_BAD_RESPONSE',
};

/**
 * Whatever an AI SDK model threw (or reported in an `error` stream part) → a `CairnError` with an
 * `LLM_*` code through provider-utils' classifiers: an `APICallError` with a status as the HTTP
 * error it was (its `retry-after`/`retry-after-ms` headers and its body's context-length wording
 * read); a `JSONParseError` or `TypeValidationError` as `LLM_BAD_RESPONSE` keeping the bad text as
 * `raw`; an abort (the caller's signal) as `LLM_ABORTED`; anything else as `classifyError` sees it.
 */
export function classifyAiSdkError(error: unknown, provider: string, signal?: AbortSignal): CairnError {
  if (CairnError.is(error)) return error;
  if (signal?.aborted) return classifyError(error, { provider, signal });
  const known = error as AiSdkErrorLike | undefined;
  const name = typeof known?.name === 'string' ? known.name : '';
  const message = typeof known?.message === 'string' ? known.message : undefined;
  if (name === 'AI_APICallError' && typeof known?.statusCode === 'number') {
    return classifyHttpError({
      status: known.statusCode,
      provider,
      headers: known.responseHeaders as HeadersLike | undefined,
      body: known.responseBody ?? known.data,
      message,
      cause: error,
    });
  }
  if (name === 'AI_JSONParseError' || name === 'AI_TypeValidationError') {
    const raw = name === 'AI_JSONParseError' ? known?.text : JSON.stringify(known?.value);
    return new CairnError('LLM_BAD_RESPONSE', `${provider}: ${message ?? name}`, {
      cause: error,
      details: { provider, ...(typeof raw === 'string' ? { raw } : {}) },
    });
  }
  const code = CODES[name];
  if (code !== undefined) {
    return new CairnError(code, `${provider}: ${message ?? name}`, { cause: error, details: { provider } });
  }
  // An APICallError without a status is a connection that failed: its cause says how.
  return classifyError(error, { provider, ...(signal ? { signal } : {}) });
}
