import { CairnError, type CairnErrorCode, definedFields } from '@cairn/core';
import { parseRetryAfter } from './parse-retry-after.js';
import type { HeadersLike } from './read-header.js';

/** An HTTP error response from a provider, as far as it is known. */
export interface HttpErrorResponse {
  status: number;
  provider: string;
  headers?: HeadersLike | undefined;
  /** The parsed (or raw) response body; searched for context-length wording with the message. */
  body?: unknown;
  message?: string | undefined;
  /** The SDK error this came from, kept as the `CairnError`'s cause. */
  cause?: unknown;
}

// How OpenAI, Anthropic, Gemini and the OpenAI-compatible servers (vLLM, llama.cpp, Ollama) word
// "the prompt does not fit"; they send it with 400 (or 413/422), never with a code of its own.
const CONTEXT_OVERFLOW_WORDING =
  /context length|context window|maximum context|prompt is too long|too many tokens|input token count|exceeds the maximum number of tokens|reduce the length of the messages|request too large|input is too long|maximum input length|too many input tokens/i;

const CONTEXT_OVERFLOW_STATUSES: ReadonlySet<number> = new Set([400, 413, 422]);

/** Maps a provider's HTTP error to a `CairnError` with an `LLM_*` code and retry advice. */
export function classifyHttpError(response: HttpErrorResponse): CairnError {
  const { status, provider } = response;
  const message = response.message ?? `HTTP ${status}`;
  const code = httpErrorCode(status, `${message} ${bodyText(response.body)}`);
  const retryAfterMs = parseRetryAfter(response.headers);
  return new CairnError(code, `${provider}: ${message}`, {
    ...definedFields({ cause: response.cause, retryAfterMs }),
    details: { status, provider },
  });
}

/**
 * The `LLM_*` code of an HTTP error status, `text` being its message and body (searched for
 * context-length wording): `classifyHttpError`'s code without building an error, for a caller
 * that only needs the code (a converter, per line).
 */
export function httpErrorCode(status: number, text: string): CairnErrorCode {
  if (status === 401 || status === 403) return 'LLM_AUTH';
  if (status === 429) return 'LLM_RATE_LIMITED';
  if (status === 408) return 'LLM_TIMEOUT';
  if (CONTEXT_OVERFLOW_STATUSES.has(status) && CONTEXT_OVERFLOW_WORDING.test(text))
    return 'LLM_CONTEXT_OVERFLOW';
  if (status >= 400 && status < 500) return 'LLM_BAD_REQUEST';
  return 'LLM_UNAVAILABLE';
}

function bodyText(body: unknown): string {
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  try {
    return JSON.stringify(body);
  } catch {
    return '';
  }
}
