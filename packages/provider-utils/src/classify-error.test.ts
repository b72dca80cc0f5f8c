import { CairnError } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { classifyError } from './classify-error.js';

const context = { provider: 'anthropic' };

// Stand-ins with the official SDKs' class names and fields (the adapters test the real ones).
class APIUserAbortError extends Error {}
class APIConnectionError extends Error {}
class APIConnectionTimeoutError extends APIConnectionError {}
class APIError extends Error {
  constructor(
    readonly status: number | undefined,
    readonly error: unknown,
    message: string,
    readonly headers?: Headers,
  ) {
    super(message);
  }
}
/** `@google/genai`'s error: a status and a message, no headers. */
class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

describe('classifyError', () => {
  it('passes a CairnError through unchanged', () => {
    const error = new CairnError('LLM_AUTH', 'no');
    expect(classifyError(error, context)).toBe(error);
  });

  it('reports aborts as LLM_ABORTED, not retryable', () => {
    const aborted = new AbortController();
    aborted.abort();
    expect(classifyError(new Error('anything'), { ...context, signal: aborted.signal }).code).toBe(
      'LLM_ABORTED',
    );
    expect(classifyError(new DOMException('x', 'AbortError'), context).code).toBe('LLM_ABORTED');
    expect(classifyError(new APIUserAbortError('Request was aborted.'), context)).toMatchObject({
      code: 'LLM_ABORTED',
      retryable: false,
    });
  });

  it('treats an abort the caller did not ask for as the SDK timeout', () => {
    const live = new AbortController().signal;
    const error = new DOMException('This operation was aborted', 'AbortError');
    expect(classifyError(error, { ...context, signal: live }).code).toBe('LLM_TIMEOUT');
  });

  it('reports timeouts as LLM_TIMEOUT, retryable', () => {
    expect(classifyError(new APIConnectionTimeoutError('Request timed out.'), context)).toMatchObject({
      code: 'LLM_TIMEOUT',
      retryable: true,
    });
    expect(classifyError(new DOMException('late', 'TimeoutError'), context).code).toBe('LLM_TIMEOUT');
    const etimedout = Object.assign(new Error('connect ETIMEDOUT'), { code: 'ETIMEDOUT' });
    expect(classifyError(new TypeError('fetch failed', { cause: etimedout }), context).code).toBe(
      'LLM_TIMEOUT',
    );
  });

  it('reports network failures as LLM_UNAVAILABLE', async () => {
    const refused = await fetch('http://127.0.0.1:9/').catch((error: unknown) => error);
    expect(classifyError(refused, context)).toMatchObject({ code: 'LLM_UNAVAILABLE', retryable: true });
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(classifyError(new APIConnectionError('Connection error.', { cause: reset }), context).code).toBe(
      'LLM_UNAVAILABLE',
    );
    const socket = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    expect(classifyError(new TypeError('terminated', { cause: socket }), context).code).toBe(
      'LLM_UNAVAILABLE',
    );
    expect(classifyError(new Error('Error fetching from x: fetch failed'), context).code).toBe(
      'LLM_UNAVAILABLE',
    );
  });

  it('classifies SDK errors with a status as HTTP errors', () => {
    const headers = new Headers({ 'retry-after-ms': '1200' });
    const rateLimited = new APIError(429, { type: 'rate_limit_error' }, '429 rate limited', headers);
    expect(classifyError(rateLimited, context)).toMatchObject({
      code: 'LLM_RATE_LIMITED',
      retryAfterMs: 1200,
      details: { status: 429, provider: 'anthropic' },
      cause: rateLimited,
    });
    const overflow = new APIError(400, { error: { message: 'prompt is too long: 9 > 8' } }, '400 bad');
    expect(classifyError(overflow, context).code).toBe('LLM_CONTEXT_OVERFLOW');
    const gemini = new ApiError('{"error":{"code":403,"message":"denied"}}', 403);
    expect(classifyError(gemini, { provider: 'gemini' }).code).toBe('LLM_AUTH');
  });

  it('maps an Anthropic in-stream error event by its type', () => {
    const overloaded = new APIError(
      undefined,
      { type: 'error', error: { type: 'overloaded_error' } },
      'Overloaded',
    );
    expect(classifyError(overloaded, context)).toMatchObject({
      code: 'LLM_UNAVAILABLE',
      details: { status: 529 },
    });
  });

  it('reports unparseable responses as LLM_BAD_RESPONSE', () => {
    const syntax = (() => {
      try {
        JSON.parse('{oops');
      } catch (error) {
        return error;
      }
    })();
    expect(classifyError(syntax, context)).toMatchObject({ code: 'LLM_BAD_RESPONSE', retryable: false });
  });

  it('never throws on odd values', () => {
    for (const value of [undefined, null, 'text', 42, { message: 7 }, Object.create(null)]) {
      expect(classifyError(value, context)).toBeInstanceOf(CairnError);
    }
    const cyclic: { cause?: unknown } = new Error('loop');
    cyclic.cause = cyclic;
    expect(classifyError(cyclic, context).code).toBe('LLM_BAD_RESPONSE');
  });
});
