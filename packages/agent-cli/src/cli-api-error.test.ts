import { describe, expect, it } from 'vitest';
import { codeOfApiStatus, parseCliApiError } from './cli-api-error.js';

describe('parseCliApiError', () => {
  it.each([
    [
      "Claude Code's text with a status",
      'API Error: 529 Overloaded. This is a server-side issue, usually temporary.',
      {
        status: 529,
        code: 'LLM_UNAVAILABLE',
        message: 'Overloaded. This is a server-side issue, usually temporary.',
      },
    ],
    [
      "Claude Code's text once its retries ran out (real apierr), the status inside the sentence",
      'API Error: Repeated 529 Overloaded errors. The API is at capacity — this is usually temporary.',
      {
        status: 529,
        code: 'LLM_UNAVAILABLE',
        message: 'Repeated 529 Overloaded errors. The API is at capacity — this is usually temporary.',
      },
    ],
    [
      "Claude Code's text with the JSON body",
      'API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"bad field"}}',
      { status: 400, code: 'LLM_BAD_REQUEST', message: 'bad field' },
    ],
    [
      'a 429',
      'API Error: 429 {"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}',
      { status: 429, code: 'LLM_RATE_LIMITED', message: 'slow down' },
    ],
    [
      "Gemini CLI's bracketed text",
      '[API Error: The model is overloaded. Please try again later.]',
      { status: 503, code: 'LLM_UNAVAILABLE', message: 'The model is overloaded. Please try again later.' },
    ],
    [
      "Gemini CLI's bracketed JSON, its message nesting the body again",
      '[API Error: {"error":{"message":"{\\"error\\":{\\"code\\":429,\\"message\\":\\"Quota exceeded\\",\\"status\\":\\"RESOURCE_EXHAUSTED\\"}}"}}]',
      { status: 429, code: 'LLM_RATE_LIMITED', message: 'Quota exceeded' },
    ],
    [
      'a message followed by a stack trace',
      '[API Error: Request failed with status 401: API key not valid]\n    at GeminiClient.generate (file:///x.js:1:2)',
      { status: 401, code: 'LLM_AUTH', message: 'Request failed with status 401: API key not valid' },
    ],
    [
      'a text that says nothing known',
      'API Error: something odd',
      { code: 'AGENT_FAILED', message: 'something odd' },
    ],
  ])('reads %s', (_label, text, expected) => {
    expect(parseCliApiError(text)).toEqual(expected);
  });

  it("takes the CLI's own status over one in the text", () => {
    expect(parseCliApiError('API Error: 500 Internal server error', 529)).toMatchObject({ status: 529 });
  });

  it('keeps the whole text when nothing is left after the prefix', () => {
    expect(parseCliApiError('API Error: ').message).toBe('API Error:');
  });

  it('gives its fields in the order of `{ ...definedFields({ status }), message, code }`', () => {
    expect(Object.keys(parseCliApiError('API Error: 400 bad'))).toEqual(['status', 'message', 'code']);
    expect(Object.keys(parseCliApiError('API Error: something odd'))).toEqual(['message', 'code']);
  });
});

describe('codeOfApiStatus', () => {
  it.each([
    [400, 'LLM_BAD_REQUEST'],
    [401, 'LLM_AUTH'],
    [429, 'LLM_RATE_LIMITED'],
    [500, 'LLM_UNAVAILABLE'],
    [529, 'LLM_UNAVAILABLE'],
    [200, 'AGENT_FAILED'],
    [1e9, 'AGENT_FAILED'],
  ] as const)('maps %i to %s', (status, code) => {
    expect(codeOfApiStatus(status)).toBe(code);
  });
});
