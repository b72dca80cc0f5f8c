import { CairnError } from '@cairn/core';
import { ApiError } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { classifyGeminiError } from './classify-gemini-error.js';

// `@google/genai` throws an `ApiError` whose message is the error JSON as it came (after
// `got status: …` when the error arrived inside a stream).
const apiError = (status: number, googleStatus: string, message: string, details?: unknown[]) =>
  new ApiError({
    status,
    message: JSON.stringify({ error: { code: status, message, status: googleStatus, details } }),
  });

describe('classifyGeminiError', () => {
  it('takes a 429 delay from the RetryInfo detail (the SDK exposes no headers)', () => {
    const error = classifyGeminiError(
      apiError(429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).', [
        { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [] },
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1.5s' },
      ]),
    );
    expect(error).toMatchObject({
      code: 'LLM_RATE_LIMITED',
      retryable: true,
      retryAfterMs: 1500,
      message: 'gemini: Resource has been exhausted (e.g. check quota).',
      details: { status: 429, provider: 'gemini' },
    });
    expect(error.cause).toBeInstanceOf(ApiError);
  });

  it('leaves the delay out when there is no RetryInfo', () => {
    const error = classifyGeminiError(apiError(429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted'));
    expect(error.code).toBe('LLM_RATE_LIMITED');
    expect(error.retryAfterMs).toBeUndefined();
  });

  it('recognises Gemini’s context overflow wording on a 400', () => {
    const error = classifyGeminiError(
      apiError(
        400,
        'INVALID_ARGUMENT',
        'The input token count (1234567) exceeds the maximum number of tokens allowed (1048576).',
      ),
    );
    expect(error).toMatchObject({ code: 'LLM_CONTEXT_OVERFLOW', retryable: false });
  });

  it.each([
    [400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.', 'LLM_BAD_REQUEST', false],
    [401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.', 'LLM_AUTH', false],
    [403, 'PERMISSION_DENIED', 'The caller does not have permission', 'LLM_AUTH', false],
    [500, 'INTERNAL', 'An internal error has occurred.', 'LLM_UNAVAILABLE', true],
    [503, 'UNAVAILABLE', 'The model is overloaded.', 'LLM_UNAVAILABLE', true],
  ] as const)('maps HTTP %i to %s', (status, googleStatus, message, code, retryable) => {
    expect(classifyGeminiError(apiError(status, googleStatus, message))).toMatchObject({ code, retryable });
  });

  it('reads an error that arrived inside a stream, and a body that is not JSON', () => {
    const inStream = new ApiError({
      status: 503,
      message: `got status: UNAVAILABLE. ${JSON.stringify({ error: { code: 503, message: 'overloaded', status: 'UNAVAILABLE' } })}`,
    });
    expect(classifyGeminiError(inStream)).toMatchObject({
      code: 'LLM_UNAVAILABLE',
      message: 'gemini: overloaded',
    });
    const html = new ApiError({ status: 502, message: '<html>Bad gateway</html>' });
    expect(classifyGeminiError(html)).toMatchObject({ code: 'LLM_UNAVAILABLE', retryable: true });
  });

  it('calls a connection cut mid-stream unavailable, and a bad stream line a bad response', () => {
    expect(classifyGeminiError(new TypeError('terminated')).code).toBe('LLM_UNAVAILABLE');
    const line = '{"oops": nope';
    const parseError = new SyntaxError('Unexpected token \'n\', "{"oops": nope" is not valid JSON');
    expect(classifyGeminiError(parseError, { malformedData: line })).toMatchObject({
      code: 'LLM_BAD_RESPONSE',
      details: { raw: line },
    });
    expect(classifyGeminiError(parseError).code).toBe('LLM_BAD_RESPONSE');
  });

  it('tells the adapter’s timeout from the caller’s abort', () => {
    const abort = new DOMException('This operation was aborted', 'AbortError');
    expect(classifyGeminiError(abort, { timedOut: true }).code).toBe('LLM_TIMEOUT');
    const controller = new AbortController();
    controller.abort();
    expect(classifyGeminiError(abort, { signal: controller.signal, timedOut: true }).code).toBe(
      'LLM_ABORTED',
    );
    expect(classifyGeminiError(abort, { signal: controller.signal }).code).toBe('LLM_ABORTED');
  });

  it('passes a CairnError through', () => {
    const error = new CairnError('INVALID_MESSAGE', 'bad');
    expect(classifyGeminiError(error)).toBe(error);
  });
});
