import { CairnError } from '@cairn/core';
import { classifyHttpError } from '@cairn/provider-utils';
import { retryHeaders } from '../retry-headers.js';
import { MALFORMED_SSE_DATA, type ScriptFault } from '../script-turn.js';

const DEFAULT_MESSAGES: Record<number, string> = {
  401: 'invalid API key',
  403: 'permission denied',
  429: 'rate limit exceeded',
  500: 'internal server error',
  503: 'service unavailable',
  529: 'overloaded',
};

// Worded like the providers' own errors, so the shared classifier recognises it.
const CONTEXT_OVERFLOW_MESSAGE = 'prompt is too long: 208310 tokens > 200000 maximum';

/** The `CairnError` a real adapter raises for this HTTP fault (same classifier, same headers). */
export function scriptFaultError(fault: ScriptFault, provider: string): CairnError {
  const message =
    fault.message ??
    (fault.contextOverflow
      ? CONTEXT_OVERFLOW_MESSAGE
      : (DEFAULT_MESSAGES[fault.status] ?? `HTTP ${fault.status}`));
  return classifyHttpError({
    status: fault.status,
    provider,
    headers: retryHeaders(fault),
    body: { error: { message } },
    message,
  });
}

/** What a real adapter reports when the SSE body stops being JSON: the offending text kept. */
export function malformedStreamError(provider: string): CairnError {
  return new CairnError('LLM_BAD_RESPONSE', `${provider}: a stream event is not valid JSON`, {
    details: { provider, raw: MALFORMED_SSE_DATA },
  });
}

/** What a real adapter reports when the connection drops mid-stream. */
export function cutStreamError(provider: string): CairnError {
  return new CairnError(
    'LLM_UNAVAILABLE',
    `${provider}: the connection closed before the response finished`,
    {
      details: { provider },
    },
  );
}
