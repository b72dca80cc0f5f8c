import { describe, expect, it } from 'vitest';
import { classifyHttpError, httpErrorCode } from './classify-http-error.js';

const classify = (status: number, message = 'failed', extra: object = {}) =>
  classifyHttpError({ status, provider: 'openai', message, ...extra });

describe('classifyHttpError', () => {
  it('maps statuses to LLM codes with the default retry advice', () => {
    const cases: Array<[number, string, boolean]> = [
      [401, 'LLM_AUTH', false],
      [403, 'LLM_AUTH', false],
      [429, 'LLM_RATE_LIMITED', true],
      [400, 'LLM_BAD_REQUEST', false],
      [404, 'LLM_BAD_REQUEST', false],
      [422, 'LLM_BAD_REQUEST', false],
      [408, 'LLM_TIMEOUT', true],
      [500, 'LLM_UNAVAILABLE', true],
      [503, 'LLM_UNAVAILABLE', true],
      [529, 'LLM_UNAVAILABLE', true],
    ];
    for (const [status, code, retryable] of cases) {
      const error = classify(status);
      expect([status, error.code, error.retryable]).toEqual([status, code, retryable]);
      expect(error.details).toEqual({ status, provider: 'openai' });
    }
  });

  it('recognises each provider wording of a context overflow', () => {
    for (const message of [
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
      'prompt is too long: 210000 tokens > 200000 maximum',
      'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).',
      'Input is too long for requested model.',
      'too many tokens in the request',
    ]) {
      expect(classify(400, message).code).toBe('LLM_CONTEXT_OVERFLOW');
    }
    expect(
      classify(413, 'x', { body: { error: { message: 'request exceeds the context window' } } }).code,
    ).toBe('LLM_CONTEXT_OVERFLOW');
    // Only client errors can be a context overflow.
    expect(classify(500, 'maximum context length exceeded').code).toBe('LLM_UNAVAILABLE');
  });

  it('takes retry advice from the headers', () => {
    const error = classify(429, 'slow down', { headers: { 'retry-after': '3' } });
    expect(error.retryAfterMs).toBe(3000);
    expect(classify(503, 'busy', { headers: new Headers({ 'retry-after-ms': '40' }) }).retryAfterMs).toBe(40);
    expect(classify(429).retryAfterMs).toBeUndefined();
  });

  it('names the provider in the message and keeps the cause', () => {
    const cause = new Error('sdk');
    const error = classify(401, 'invalid x-api-key', { cause });
    expect(error.message).toBe('openai: invalid x-api-key');
    expect(error.cause).toBe(cause);
  });
});

describe('httpErrorCode', () => {
  it('is the code classifyHttpError gives, without building the error', () => {
    for (const [status, message] of [
      [401, 'no'],
      [408, 'slow'],
      [413, 'prompt is too long'],
      [400, 'bad'],
      [429, 'slow down'],
      [529, 'overloaded'],
    ] as const) {
      expect(httpErrorCode(status, message)).toBe(classify(status, message).code);
    }
  });
});
