import { describe, expect, it } from 'vitest';
import type { JsonValue } from './json-value.js';
import { nestsDeeperThan, truncateDeepJson, truncatedJsonMarker } from './truncate-deep-json.js';

function nested(depth: number): JsonValue {
  let value: JsonValue = 'leaf';
  for (let level = 0; level < depth; level++) value = level % 2 === 0 ? { a: value } : [value];
  return value;
}

describe('truncateDeepJson', () => {
  it('returns a value that fits as is', () => {
    const value = { a: [1, { b: 'x' }] };
    expect(truncateDeepJson(value, 3)).toEqual({ value, truncated: false });
    expect(truncateDeepJson(value, 3).value).toBe(value);
  });

  it('replaces each object or array below the limit by a marker', () => {
    const marker = truncatedJsonMarker(2);
    expect(truncateDeepJson({ a: { b: { c: 1 } }, d: [[1], 2], e: 'x' }, 2)).toEqual({
      value: { a: { b: marker }, d: [marker, 2], e: 'x' },
      truncated: true,
    });
    expect(marker).toBe('[truncated: nested deeper than 2 levels]');
  });

  it('handles 100,000 levels without overflowing the stack, and the result serialises', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as JsonValue;
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    const { value, truncated } = truncateDeepJson(deep, 62);
    expect(truncated).toBe(true);
    expect(nestsDeeperThan(value, 62)).toBe(false);
    expect(JSON.stringify(value)).toBe(`${'['.repeat(62)}"${truncatedJsonMarker(62)}"${']'.repeat(62)}`);
  });

  it('keeps a __proto__ key as a key', () => {
    const value = JSON.parse('{"__proto__":{"x":{"y":1}}}') as JsonValue;
    const { value: cut } = truncateDeepJson(value, 2);
    expect(Object.keys(cut as object)).toEqual(['__proto__']);
    expect(JSON.stringify(cut)).toBe(`{"__proto__":{"x":"${truncatedJsonMarker(2)}"}}`);
  });

  it('counts levels like nestsDeeperThan', () => {
    for (let depth = 0; depth < 6; depth++) {
      expect(nestsDeeperThan(nested(depth), 3)).toBe(depth > 3);
      expect(truncateDeepJson(nested(depth), 3).truncated).toBe(depth > 3);
    }
  });
});
