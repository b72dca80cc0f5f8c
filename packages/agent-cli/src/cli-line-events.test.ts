import { describe, expect, it } from 'vitest';
import { cliLineEvents } from './cli-line-events.js';

const events = cliLineEvents({ source: 'some-cli', cliName: 'Some CLI' });
const now = () => new Date('2030-01-01T00:00:00.000Z');
const timestamp = now().toISOString();

describe('cliLineEvents', () => {
  it('keeps the fields a converter does not know as one unknown event under its source', () => {
    const line = { type: 'turn', id: 1, extra: { nested: true }, more: null };
    expect(events.unknownFieldsEvent('turn', line, new Set(['type', 'id']), timestamp)).toEqual([
      {
        type: 'unknown',
        timestamp,
        source: 'some-cli',
        raw: { type: 'turn', unknownFields: { extra: { nested: true }, more: null } },
      },
    ]);
    expect(events.unknownFieldsEvent('turn', line, new Set(Object.keys(line)), timestamp)).toEqual([]);
  });

  it('names the CLI in the error for a line that is not JSON', () => {
    expect(events.malformedLineEvent('oops', timestamp)).toEqual({
      type: 'error',
      timestamp,
      code: 'LLM_BAD_RESPONSE',
      message: 'Some CLI wrote a line that is not JSON',
      retryable: false,
      fatal: false,
      raw: 'oops',
    });
  });

  it('turns a converter bug into a non-fatal error event for the line', () => {
    const push = events.neverThrowing(() => {
      throw new TypeError('boom');
    }, now);
    expect(push('{"type":"x"}')).toEqual([
      expect.objectContaining({
        type: 'error',
        fatal: false,
        message: 'Some CLI line could not be converted: TypeError: boom',
        raw: '{"type":"x"}',
      }),
    ]);
    expect(events.neverThrowing(() => [], now)('x')).toEqual([]);
  });
});
