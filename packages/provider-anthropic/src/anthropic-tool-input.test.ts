import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  INVALID_TOOL_ARGUMENTS_KEY,
  toAnthropicToolInput,
  toolArgumentsFromInput,
  toolArgumentsFromJson,
} from './anthropic-tool-input.js';

const objectArb = fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 });

describe('toAnthropicToolInput', () => {
  it('parses a JSON object and maps no arguments to {}', () => {
    expect(toAnthropicToolInput('{"a":[1,{"b":null}]}')).toEqual({ a: [1, { b: null }] });
    expect(toAnthropicToolInput('')).toEqual({});
    expect(toAnthropicToolInput(' \n')).toEqual({});
  });

  it('keeps invalid JSON and non-object JSON raw under the wrapper key', () => {
    for (const raw of ['{"city": "Par', '[1,2]', '"text"', '42', 'null']) {
      expect(toAnthropicToolInput(raw)).toEqual({ [INVALID_TOOL_ARGUMENTS_KEY]: raw });
    }
  });

  it('always gives an object', () => {
    fc.assert(
      fc.property(fc.string(), (raw) => {
        const input = toAnthropicToolInput(raw);
        expect(typeof input === 'object' && input !== null && !Array.isArray(input)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });
});

describe('tool arguments from a received input', () => {
  it('stream and generate give the same arguments for the same input, however the JSON was spaced', () => {
    fc.assert(
      fc.property(objectArb, fc.nat({ max: 4 }), (input, indent) => {
        const streamed = toolArgumentsFromJson(JSON.stringify(input, null, indent));
        expect(streamed).toBe(toolArgumentsFromInput(input));
        expect(toAnthropicToolInput(streamed)).toEqual(JSON.parse(JSON.stringify(input)));
      }),
      { numRuns: 100 },
    );
  });

  it('keeps streamed invalid JSON as it came, and a string input as the text', () => {
    expect(toolArgumentsFromJson('{"city": "Par')).toBe('{"city": "Par');
    expect(toolArgumentsFromInput('{"oops')).toBe('{"oops');
    expect(toolArgumentsFromInput(undefined)).toBe('{}');
  });
});
