import { CairnError, type CairnErrorCode } from '@cairn/core';
import { classifyHttpError } from './classify-http-error.js';
import type { HeadersLike } from './read-header.js';

/** Who was called, and the caller's signal (to tell an abort from the SDK's own timeout). */
export interface ErrorContext {
  provider: string;
  signal?: AbortSignal | undefined;
}

// Matched on the error and its `cause` chain: undici wraps the socket error as `cause` of
// "fetch failed", the SDKs wrap it once more.
const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'ESOCKETTIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const NETWORK_MESSAGE = /fetch failed|terminated|socket hang up|other side closed|network error/i;
const TIMEOUT_CLASSES = new Set(['APIConnectionTimeoutError']);
const ABORT_CLASSES = new Set(['APIUserAbortError']);
const CONNECTION_CLASSES = new Set(['APIConnectionError']);
// Anthropic reports failures inside a stream as an `error` event whose `error.type` names what an
// HTTP status would have said; the SDK throws it with no status.
const ANTHROPIC_ERROR_TYPE_STATUS: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  status?: unknown;
  headers?: unknown;
  error?: unknown;
  cause?: unknown;
}

/**
 * Turns whatever a provider SDK, fetch or the network threw into a `CairnError` with an `LLM_*`
 * code and retry advice. A `CairnError` passes through unchanged.
 */
export function classifyError(error: unknown, context: ErrorContext): CairnError {
  if (CairnError.is(error)) return error;
  const { provider, signal } = context;
  const chain = causeChain(error);
  const message = `${provider}: ${messageOf(error)}`;
  const wrap = (code: CairnErrorCode) =>
    new CairnError(code, message, { cause: error, details: { provider } });

  if (signal?.aborted) return wrap('LLM_ABORTED');
  if (chain.some(isTimeout)) return wrap('LLM_TIMEOUT');
  // An abort the caller did not ask for (their signal is still live) is the SDK's own timer.
  if (chain.some(isAbort)) return wrap(signal === undefined ? 'LLM_ABORTED' : 'LLM_TIMEOUT');
  const http = chain.find(hasStatus);
  if (http !== undefined) {
    return classifyHttpError({
      status: http.status,
      provider,
      headers: http.headers as HeadersLike | undefined,
      body: http.error,
      message: messageOf(http),
      cause: error,
    });
  }
  const anthropicStatus = chain.map(anthropicErrorStatus).find((status) => status !== undefined);
  if (anthropicStatus !== undefined) {
    return classifyHttpError({ status: anthropicStatus, provider, message: messageOf(error), cause: error });
  }
  if (chain.some(isNetworkFailure)) return wrap('LLM_UNAVAILABLE');
  // What is left (a JSON parse failure, an answer the adapter could not read) is a bad response.
  return wrap('LLM_BAD_RESPONSE');
}

function causeChain(error: unknown): ErrorLike[] {
  const chain: ErrorLike[] = [];
  let current = error;
  // Bounded: a cause cycle must not hang classification.
  while (typeof current === 'object' && current !== null && chain.length < 8 && !chain.includes(current)) {
    chain.push(current);
    current = (current as ErrorLike).cause;
  }
  return chain;
}

function className(error: ErrorLike): string {
  return (error as { constructor?: { name?: string } }).constructor?.name ?? '';
}

function isTimeout(error: ErrorLike): boolean {
  return (
    error.name === 'TimeoutError' ||
    TIMEOUT_CLASSES.has(className(error)) ||
    (typeof error.code === 'string' && TIMEOUT_CODES.has(error.code))
  );
}

function isAbort(error: ErrorLike): boolean {
  return error.name === 'AbortError' || error.code === 'ABORT_ERR' || ABORT_CLASSES.has(className(error));
}

function hasStatus(error: ErrorLike): error is ErrorLike & { status: number } {
  return typeof error.status === 'number' && error.status >= 100;
}

function anthropicErrorStatus(error: ErrorLike): number | undefined {
  const body = error.error as { type?: unknown; error?: { type?: unknown } } | undefined;
  const type = body?.error?.type ?? body?.type;
  return typeof type === 'string' ? ANTHROPIC_ERROR_TYPE_STATUS[type] : undefined;
}

function isNetworkFailure(error: ErrorLike): boolean {
  if (
    typeof error.code === 'string' &&
    (NETWORK_CODES.has(error.code) || error.code.startsWith('UND_ERR_'))
  ) {
    return true;
  }
  return CONNECTION_CLASSES.has(className(error)) || NETWORK_MESSAGE.test(messageOf(error));
}

function messageOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && typeof (error as ErrorLike).message === 'string') {
    return (error as { message: string }).message;
  }
  // String() throws on an object without a prototype; a classifier must not.
  return typeof error === 'object' && error !== null ? Object.prototype.toString.call(error) : String(error);
}
