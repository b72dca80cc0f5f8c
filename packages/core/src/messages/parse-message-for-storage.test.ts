import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversationMessageArb } from '../../test/arbitraries.js';
import { CairnError } from '../errors/cairn-error.js';
import { MAX_MESSAGE_DEPTH, parseMessageForStorage } from './parse-message-for-storage.js';

const createdAt = '2026-01-18T00:00:00Z';
const toolMessage = { id: 't1', role: 'tool', tool_call_id: 'call_1', content: 'done', createdAt };

function storageError(value: unknown): CairnError {
  try {
    parseMessageForStorage(value);
  } catch (error) {
    if (CairnError.is(error)) return error;
    throw error;
  }
  throw new Error('expected parseMessageForStorage to throw');
}

function nestedObjects(levels: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < levels; level++) value = { a: value };
  return value;
}

describe('parseMessageForStorage', () => {
  it('returns a validated plain copy, fields of newer versions kept and undefined fields left out', () => {
    const message = { ...toolMessage, isError: undefined, future: { nested: [1, 'two'] } };
    const stored = parseMessageForStorage(message);
    expect(stored).toStrictEqual({ ...toolMessage, future: { nested: [1, 'two'] } });
    expect(stored).not.toBe(message);
  });

  it('stores every valid message as JSON gives it back', () => {
    fc.assert(
      fc.property(conversationMessageArb, (message) => {
        expect(parseMessageForStorage(message)).toStrictEqual(JSON.parse(JSON.stringify(message)));
      }),
      { numRuns: 100 },
    );
  });

  it('refuses a value JSON cannot hold with INVALID_MESSAGE naming the field', () => {
    const error = storageError({ ...toolMessage, structuredResult: { count: 3n } });
    expect(error.code).toBe('INVALID_MESSAGE');
    expect(error.message).toBe(
      'Invalid conversation message at structuredResult.count: a BigInt is not JSON: store it as a string or a number',
    );
    expect(error.details).toEqual({
      issues: [{ path: 'structuredResult.count', message: expect.stringContaining('BigInt') }],
    });
  });

  it('refuses a message with its own toJSON: what would be stored is not what was validated', () => {
    const message = { ...toolMessage, toJSON: () => ({ id: 'other' }) };
    expect(storageError(message).message).toContain('at (root): an object with a toJSON method');
  });

  it(`accepts ${MAX_MESSAGE_DEPTH} levels (the message is the first) and refuses one more`, () => {
    const deepest = { ...toolMessage, structuredResult: nestedObjects(MAX_MESSAGE_DEPTH - 1) };
    expect(parseMessageForStorage(deepest)).toStrictEqual(deepest);
    const tooDeep = { ...toolMessage, structuredResult: nestedObjects(MAX_MESSAGE_DEPTH) };
    expect(storageError(tooDeep).message).toContain(`nested deeper than ${MAX_MESSAGE_DEPTH} levels`);
  });

  it('validates the copy: a schema error is still reported as one', () => {
    expect(storageError({ ...toolMessage, tool_call_id: undefined }).message).toContain(
      'at tool_call_id: a tool message needs tool_call_id',
    );
  });
});
