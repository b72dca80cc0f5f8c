import { definedFields, isRetryableByDefault } from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCliApiError } from '../cli-api-error.js';
import { claudeCodeApiErrorEvent, STATUS_OF_ERROR } from './claude-code-api-error.js';

// What the event was made of before the text was read once: the text read for its status, then
// read again with the status found (or the one the error's name stands for).
function readTwice(text: string, errorName: string) {
  const named = Object.hasOwn(STATUS_OF_ERROR, errorName) ? STATUS_OF_ERROR[errorName] : undefined;
  const status = parseCliApiError(text).status ?? named;
  const { code, message } = parseCliApiError(text === '' ? `API Error: ${errorName}` : text, status);
  return { code, message, retryable: isRetryableByDefault(code), status };
}

const errorText = fc.oneof(
  fc.string(),
  fc
    .tuple(
      fc.constantFrom('API Error: ', '[API Error: ', '  api error:', ''),
      fc.option(fc.constantFrom('400', '401', '429', '500', '529', '600', 'Repeated 529'), {
        nil: undefined,
      }),
      fc.constantFrom(
        ' Overloaded',
        ' {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
        ' {"error":{"code":403,"message":"no","status":"PERMISSION_DENIED"}}',
        ' rate limit reached',
        ' Invalid API key',
        ' request timed out\n    at fetch (x.js:1:2)',
        '',
      ),
      fc.constantFrom('', ']', ' '),
    )
    .map(([prefix, status, rest, end]) => `${prefix}${status ?? ''}${rest}${end}`),
);

describe('claudeCodeApiErrorEvent', () => {
  it('reads the text once and gives what reading it twice gave', () => {
    const errorName = fc.oneof(
      fc.constantFrom(
        'rate_limit',
        'authentication_failed',
        'billing_error',
        'invalid_request',
        'server_error',
      ),
      fc.constantFrom('unknown', 'toString', '__proto__'),
      fc.string(),
    );
    fc.assert(
      fc.property(errorText, errorName, (text, name) => {
        const message = { model: '<synthetic>', content: [{ type: 'text', text }] };
        const event = claudeCodeApiErrorEvent({ error: name }, message, { timestamp: 't' });
        const expected = readTwice(text, name);
        expect({
          code: event.code,
          message: event.message,
          retryable: event.retryable,
          providerMetadata: event.providerMetadata,
        }).toEqual({
          code: expected.code,
          message: expected.message,
          retryable: expected.retryable,
          providerMetadata: { 'claude-code': { error: name, ...definedFields({ status: expected.status }) } },
        });
      }),
      { numRuns: 1000 },
    );
  });
});
