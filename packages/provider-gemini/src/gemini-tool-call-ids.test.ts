import { isSafeId } from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { geminiToolCallId } from './gemini-tool-call-ids.js';

const functionCall = fc.record({
  name: fc.string({ minLength: 1, maxLength: 10 }),
  args: fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
});
const position = fc.record({ turn: fc.nat({ max: 500 }), position: fc.nat({ max: 20 }) });

describe('geminiToolCallId', () => {
  it('keeps an id the API sent', () => {
    expect(geminiToolCallId({ id: 'api-id', name: 'ls' }, { turn: 1, position: 0 })).toBe('api-id');
  });

  it('synthesises a safe id that is the same for the same call in the same place', () => {
    fc.assert(
      fc.property(functionCall, position, (call, where) => {
        const id = geminiToolCallId(call, where);
        expect(isSafeId(id)).toBe(true);
        expect(geminiToolCallId(structuredClone(call), { ...where })).toBe(id);
      }),
      { numRuns: 100 },
    );
  });

  it('gives different ids to calls that differ in turn, position, name or arguments', () => {
    fc.assert(
      fc.property(functionCall, functionCall, position, position, (a, b, whereA, whereB) => {
        const same =
          JSON.stringify([whereA.turn, whereA.position, a.name, a.args]) ===
          JSON.stringify([whereB.turn, whereB.position, b.name, b.args]);
        expect(geminiToolCallId(a, whereA) === geminiToolCallId(b, whereB)).toBe(same);
      }),
      { numRuns: 100 },
    );
  });

  it('treats missing arguments like an empty object', () => {
    expect(geminiToolCallId({ name: 'ls' }, { turn: 3, position: 1 })).toBe(
      geminiToolCallId({ name: 'ls', args: {} }, { turn: 3, position: 1 }),
    );
  });
});
