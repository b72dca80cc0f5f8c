import { CairnError } from '@cairn/core';
import {
  GoogleGenerativeAIAbortError,
  GoogleGenerativeAIError,
  GoogleGenerativeAIFetchError,
} from '@google/generative-ai';
import { describe, expect, it } from 'vitest';
import { classifyGeminiError } from './classify-gemini-error.js';

const URL = 'https://generativelanguage.googleapis.com/v1beta/models/gemini-test:generateContent';
const fetchError = (status: number, statusText: string, message: string, details?: unknown[]) =>
  new GoogleGenerativeAIFetchError(
    `Error fetching from ${URL}: [${status} ${statusText}] ${message}${details ? ` ${JSON.stringify(details)}` : ''}`,
    status,
    statusText,
    details as never,
  );

describe('classifyGeminiError', () => {
  it('takes a 429 delay from the RetryInfo detail (the SDK exposes no headers)', () => {
    const error = classifyGeminiError(
      fetchError(429, 'Too Many Requests', 'Resource has been exhausted (e.g. check quota).', [
        { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [] },
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1.5s' },
      ]),
    );
    expect(error).toMatchObject({
      code: 'LLM_RATE_LIMITED',
      retryable: true,
      retryAfterMs: 1500,
      details: { status: 429, provider: 'gemini' },
    });
    expect(error.cause).toBeInstanceOf(GoogleGenerativeAIFetchError);
  });

  it('leaves the delay out when there is no RetryInfo', () => {
    const error = classifyGeminiError(fetchError(429, 'Too Many Requests', 'Resource has been exhausted'));
    expect(error.code).toBe('LLM_RATE_LIMITED');
    expect(error.retryAfterMs).toBeUndefined();
  });

  it('recognises Gemini’s context overflow wording on a 400', () => {
    const error = classifyGeminiError(
      fetchError(
        400,
        'Bad Request',
        'The input token count (1234567) exceeds the maximum number of tokens allowed (1048576).',
      ),
    );
    expect(error).toMatchObject({ code: 'LLM_CONTEXT_OVERFLOW', retryable: false });
  });

  it.each([
    [400, 'Bad Request', 'Request contains an invalid argument.', 'LLM_BAD_REQUEST', false],
    [401, 'Unauthorized', 'Request had invalid authentication credentials.', 'LLM_AUTH', false],
    [403, 'Forbidden', 'The caller does not have permission', 'LLM_AUTH', false],
    [500, 'Internal Server Error', 'An internal error has occurred.', 'LLM_UNAVAILABLE', true],
    [503, 'Service Unavailable', 'The model is overloaded.', 'LLM_UNAVAILABLE', true],
  ] as const)('maps HTTP %i to %s', (status, statusText, message, code, retryable) => {
    expect(classifyGeminiError(fetchError(status, statusText, message))).toMatchObject({ code, retryable });
  });

  it('calls a connection cut mid-stream unavailable, and a bad stream line a bad response with its text', () => {
    expect(classifyGeminiError(new GoogleGenerativeAIError('Error reading from the stream')).code).toBe(
      'LLM_UNAVAILABLE',
    );
    const bad = classifyGeminiError(
      new GoogleGenerativeAIError('Error parsing JSON response: "{"oops": nope"'),
    );
    expect(bad).toMatchObject({ code: 'LLM_BAD_RESPONSE', details: { raw: '{"oops": nope' } });
  });

  it('tells the adapter’s timeout from the caller’s abort', () => {
    const abort = new GoogleGenerativeAIAbortError('Request aborted when reading from the stream');
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
