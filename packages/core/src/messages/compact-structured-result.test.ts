import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactStructuredResult } from './compact-structured-result.js';
import type { JsonValue } from './json-value.js';
import { MAX_MESSAGE_DEPTH, parseMessageForStorage } from './parse-message-for-storage.js';
import { TOOL_OUTPUT_THRESHOLD } from './tool-output-limits.js';

const big = 'x'.repeat(TOOL_OUTPUT_THRESHOLD + 1);

/** `levels` objects inside one another (the outermost the first level), the innermost holding `{}`. */
function nested(levels: number): JsonValue {
  let value: JsonValue = {};
  for (let level = 1; level < levels; level++) value = { a: value };
  return value;
}

describe('compactStructuredResult', () => {
  it('keeps a result within the budget as it is (the same object)', () => {
    const result = { stdout: 'ok', stderr: '', interrupted: false };
    expect(compactStructuredResult(result)).toBe(result);
  });

  it('leaves out the longest strings until the rest fits, naming them', () => {
    const result = { stdout: big, stderr: 'warning', file: { filePath: '/w/a', content: big } };
    expect(compactStructuredResult(result)).toEqual({
      stderr: 'warning',
      file: { filePath: '/w/a' },
      omittedFields: ['stdout', 'file.content'],
    });
  });

  it('replaces one long string or list entirely', () => {
    expect(compactStructuredResult(big)).toEqual({ omittedFields: [''] });
    expect(compactStructuredResult([big])).toEqual({ omittedFields: [''] });
  });

  it('always fits the budget and keeps every field it does not name unchanged', () => {
    const stringTotal = (value: unknown): number =>
      typeof value === 'string'
        ? value.length
        : value !== null && typeof value === 'object'
          ? Object.values(value).reduce((sum: number, item) => sum + stringTotal(item), 0)
          : 0;
    const value = fc.oneof(fc.string({ maxLength: 30_000 }), fc.jsonValue());
    fc.assert(
      fc.property(fc.dictionary(fc.string(), value), (result) => {
        const { omittedFields = [], ...kept } = compactStructuredResult(result as JsonValue) as Record<
          string,
          unknown
        > & {
          omittedFields?: string[];
        };
        expect(stringTotal(kept)).toBeLessThanOrEqual(TOOL_OUTPUT_THRESHOLD);
        for (const [key, item] of Object.entries(kept)) {
          const touched = omittedFields.some((path) => path === key || path.startsWith(`${key}.`));
          if (!touched) expect(item).toEqual(result[key]);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('leaves out what nests deeper than a stored message may hold, so the store never refuses the result', () => {
    // The message is the first level, its structuredResult the second.
    const deepest = nested(MAX_MESSAGE_DEPTH - 1);
    expect(compactStructuredResult(deepest)).toBe(deepest);
    const deepPath = Array.from({ length: MAX_MESSAGE_DEPTH - 2 }, () => 'a').join('.');
    expect(compactStructuredResult({ ok: 1, deep: nested(5000) })).toMatchObject({
      ok: 1,
      omittedFields: [`deep.${deepPath}`],
    });
    expect(compactStructuredResult([nested(100)])).toEqual({ omittedFields: [''] });
    const compacted = compactStructuredResult({ list: [1, nested(MAX_MESSAGE_DEPTH)], big });
    expect(compacted).toMatchObject({ omittedFields: [expect.stringMatching(/^list\.1\./), 'big'] });
    const message = {
      id: 't',
      role: 'tool',
      tool_call_id: 'c',
      content: '',
      createdAt: '2026-01-18T00:00:00Z',
    };
    expect(() => parseMessageForStorage({ ...message, structuredResult: compacted })).not.toThrow();
  });
});
