import { describe, expect, it } from 'vitest';
import { CairnError, toCairnError } from './cairn-error.js';
import { CAIRN_ERROR_CODES, CairnErrorCodeSchema, isRetryableByDefault } from './cairn-error-code.js';

describe('CairnError', () => {
  it('carries code, message, retry advice, details and cause', () => {
    const cause = new Error('socket hang up');
    const error = new CairnError('LLM_RATE_LIMITED', 'slow down', {
      retryAfterMs: 1500,
      cause,
      details: { status: 429 },
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('CairnError');
    expect(error.code).toBe('LLM_RATE_LIMITED');
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBe(1500);
    expect(error.cause).toBe(cause);
    expect(error.details).toEqual({ status: 429 });
  });

  it('uses the code default for retryable unless told otherwise', () => {
    expect(new CairnError('LLM_AUTH', 'no').retryable).toBe(false);
    expect(new CairnError('LLM_UNAVAILABLE', 'down').retryable).toBe(true);
    expect(new CairnError('LLM_UNAVAILABLE', 'down', { retryable: false }).retryable).toBe(false);
  });

  it('serialises to JSON without the cause or stack', () => {
    const error = new CairnError('TOOL_DENIED', 'not allowed', { cause: new Error('secret path') });
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'CairnError',
      code: 'TOOL_DENIED',
      message: 'not allowed',
      retryable: false,
    });
  });

  it('is() recognises CairnErrors, optionally of one code, and nothing else', () => {
    const error = new CairnError('INVALID_ID', 'bad');
    expect(CairnError.is(error)).toBe(true);
    expect(CairnError.is(error, 'INVALID_ID')).toBe(true);
    expect(CairnError.is(error, 'STORE_CORRUPT')).toBe(false);
    expect(CairnError.is(new Error('bad'))).toBe(false);
    expect(CairnError.is({ code: 'INVALID_ID' })).toBe(false);
    expect(CairnError.is(null)).toBe(false);
  });

  it('is() recognises an error from another copy of the package (shared global brand)', () => {
    const foreign = Object.defineProperty(new Error('x'), Symbol.for('@cairn/core/CairnError'), {
      value: true,
    });
    Object.assign(foreign, { code: 'LOOP_STUCK' });
    expect(CairnError.is(foreign, 'LOOP_STUCK')).toBe(true);
  });
});

describe('toCairnError', () => {
  it('returns a CairnError unchanged', () => {
    const error = new CairnError('LLM_TIMEOUT', 'late');
    expect(toCairnError(error, 'TOOL_FAILED')).toBe(error);
  });

  it('wraps anything else with the given code, keeping it as the cause', () => {
    const original = new TypeError('x is not a function');
    const wrapped = toCairnError(original, 'TOOL_FAILED');
    expect(wrapped.code).toBe('TOOL_FAILED');
    expect(wrapped.message).toBe('x is not a function');
    expect(wrapped.cause).toBe(original);
    expect(toCairnError('plain string', 'TOOL_FAILED').message).toBe('plain string');
    expect(toCairnError(original, 'TOOL_FAILED', 'the tool crashed').message).toBe('the tool crashed');
  });
});

describe('error codes', () => {
  it('include every code the issues name', () => {
    for (const code of [
      'INVALID_MESSAGE',
      'INVALID_ID',
      'STORE_CORRUPT',
      'STORE_CONFLICT',
      'LLM_AUTH',
      'LLM_RATE_LIMITED',
      'LLM_CONTEXT_OVERFLOW',
      'LLM_BAD_REQUEST',
      'LLM_UNAVAILABLE',
      'LLM_TIMEOUT',
      'LLM_ABORTED',
      'TOOL_NOT_FOUND',
      'TOOL_INVALID_INPUT',
      'TOOL_FAILED',
      'TOOL_DENIED',
      'LOOP_MAX_TURNS',
      'LOOP_STUCK',
    ]) {
      expect(CAIRN_ERROR_CODES).toContain(code);
    }
  });

  it('validates codes with a schema', () => {
    expect(CairnErrorCodeSchema.safeParse('LLM_AUTH').success).toBe(true);
    expect(CairnErrorCodeSchema.safeParse('OOPS').success).toBe(false);
  });

  it('marks only transient failures retryable by default', () => {
    const retryable = CAIRN_ERROR_CODES.filter(isRetryableByDefault);
    expect(retryable.sort()).toEqual([
      'LLM_RATE_LIMITED',
      'LLM_TIMEOUT',
      'LLM_UNAVAILABLE',
      'STORE_UNAVAILABLE',
    ]);
  });
});
