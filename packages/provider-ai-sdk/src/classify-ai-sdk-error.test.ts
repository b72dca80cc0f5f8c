import {
  APICallError,
  JSONParseError,
  LoadAPIKeyError,
  UnsupportedFunctionalityError,
} from '@ai-sdk/provider';
import { CairnError } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { classifyAiSdkError } from './classify-ai-sdk-error.js';

const PROVIDER = 'mistral.chat';

function apiCallError(
  statusCode: number,
  responseBody: string,
  responseHeaders: Record<string, string> = {},
) {
  return new APICallError({
    message: JSON.parse(responseBody).error?.message ?? `HTTP ${statusCode}`,
    url: 'https://api.example.com/v1/chat/completions',
    requestBodyValues: {},
    statusCode,
    responseHeaders,
    responseBody,
  });
}

describe('classifyAiSdkError', () => {
  it('a 429 with retry-after → LLM_RATE_LIMITED, retryable, waiting what the server asked', () => {
    const error = classifyAiSdkError(
      apiCallError(429, '{"error":{"message":"Rate limit reached"}}', { 'retry-after': '7' }),
      PROVIDER,
    );
    expect(error).toMatchObject({
      code: 'LLM_RATE_LIMITED',
      retryable: true,
      retryAfterMs: 7000,
      details: { status: 429, provider: PROVIDER },
    });
    expect(error.cause).toBeInstanceOf(APICallError);
  });

  it('a 400 worded as a context-length error → LLM_CONTEXT_OVERFLOW, not retryable', () => {
    const body = JSON.stringify({
      error: {
        message: "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens.",
      },
    });
    expect(classifyAiSdkError(apiCallError(400, body), PROVIDER)).toMatchObject({
      code: 'LLM_CONTEXT_OVERFLOW',
      retryable: false,
      details: { status: 400 },
    });
  });

  it('another 400 → LLM_BAD_REQUEST; a 401 → LLM_AUTH; a 503 → LLM_UNAVAILABLE, retryable', () => {
    expect(classifyAiSdkError(apiCallError(400, '{"error":{"message":"bad tool"}}'), PROVIDER).code).toBe(
      'LLM_BAD_REQUEST',
    );
    expect(
      classifyAiSdkError(apiCallError(401, '{"error":{"message":"Invalid API key"}}'), PROVIDER),
    ).toMatchObject({
      code: 'LLM_AUTH',
      retryable: false,
      message: `${PROVIDER}: Invalid API key`,
    });
    expect(classifyAiSdkError(apiCallError(503, '{}'), PROVIDER)).toMatchObject({
      code: 'LLM_UNAVAILABLE',
      retryable: true,
    });
  });

  it('a connection that failed (an APICallError without a status) → LLM_UNAVAILABLE', () => {
    const error = new APICallError({
      message: 'Cannot connect to API: fetch failed',
      url: 'http://127.0.0.1:1/v1/chat/completions',
      requestBodyValues: {},
      cause: Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }),
      isRetryable: true,
    });
    expect(classifyAiSdkError(error, PROVIDER)).toMatchObject({ code: 'LLM_UNAVAILABLE', retryable: true });
  });

  it('a stream line that is not JSON → LLM_BAD_RESPONSE keeping the line as raw', () => {
    const error = new JSONParseError({ text: '{"choices": [', cause: new SyntaxError('Unexpected end') });
    expect(classifyAiSdkError(error, PROVIDER)).toMatchObject({
      code: 'LLM_BAD_RESPONSE',
      details: { provider: PROVIDER, raw: '{"choices": [' },
    });
  });

  it("the SDK's other errors: a missing key → LLM_AUTH, an unsupported feature → UNSUPPORTED_CONTENT", () => {
    expect(
      classifyAiSdkError(new LoadAPIKeyError({ message: 'Mistral API key is missing.' }), PROVIDER).code,
    ).toBe('LLM_AUTH');
    expect(
      classifyAiSdkError(new UnsupportedFunctionalityError({ functionality: 'audio input' }), PROVIDER).code,
    ).toBe('UNSUPPORTED_CONTENT');
  });

  it("the caller's abort → LLM_ABORTED; a CairnError passes through", () => {
    const controller = new AbortController();
    controller.abort();
    expect(
      classifyAiSdkError(new DOMException('aborted', 'AbortError'), PROVIDER, controller.signal).code,
    ).toBe('LLM_ABORTED');
    const own = new CairnError('LLM_TIMEOUT', 'slow');
    expect(classifyAiSdkError(own, PROVIDER)).toBe(own);
  });
});
