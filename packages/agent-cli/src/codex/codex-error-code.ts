import type { CairnErrorCode } from '@cairn/core';

export interface CodexErrorClass {
  code: CairnErrorCode;
  retryable: boolean;
}

// Codex reports a failed model call as text: the API's error body as JSON (a 400), its own words
// for a server error it gave up retrying ("We’re currently experiencing high demand, …"), or
// "… status 429 Too Many Requests …". The first matching rule names the code.
const RULES: ReadonlyArray<{ pattern: RegExp } & CodexErrorClass> = [
  {
    pattern: /context_length_exceeded|context window|maximum context length/i,
    code: 'LLM_CONTEXT_OVERFLOW',
    retryable: false,
  },
  {
    pattern: /\b401\b|unauthori[sz]ed|invalid_api_key|incorrect api key/i,
    code: 'LLM_AUTH',
    retryable: false,
  },
  {
    pattern: /\b429\b|rate.?limit|too many requests|usage limit|quota/i,
    code: 'LLM_RATE_LIMITED',
    retryable: true,
  },
  { pattern: /invalid_request_error|\b400\b|bad request/i, code: 'LLM_BAD_REQUEST', retryable: false },
  {
    pattern:
      /high demand|server_error|\b50[0-4]\b|overloaded|unavailable|stream disconnected|internal server error/i,
    code: 'LLM_UNAVAILABLE',
    retryable: true,
  },
  { pattern: /timed? ?out|timeout/i, code: 'LLM_TIMEOUT', retryable: true },
];

/** The Cairn error code of a Codex `error`/`turn.failed` message; `AGENT_FAILED` when none fits. */
export function classifyCodexError(message: string): CodexErrorClass {
  const rule = RULES.find(({ pattern }) => pattern.test(message));
  return rule === undefined
    ? { code: 'AGENT_FAILED', retryable: false }
    : { code: rule.code, retryable: rule.retryable };
}
