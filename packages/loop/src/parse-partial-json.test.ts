import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePartialJson } from './parse-partial-json.js';

// What a prefix may show of the whole value: strings as their start, objects and arrays with some
// of their fields and items (each consistent in turn), anything else exactly.
function consistent(partial: unknown, whole: unknown): boolean {
  if (typeof partial === 'string') return typeof whole === 'string' && whole.startsWith(partial);
  if (Array.isArray(partial)) {
    return (
      Array.isArray(whole) &&
      partial.length <= whole.length &&
      partial.every((item, index) => consistent(item, whole[index]))
    );
  }
  if (typeof partial === 'object' && partial !== null) {
    if (typeof whole !== 'object' || whole === null || Array.isArray(whole)) return false;
    return Object.keys(partial).every(
      (key) =>
        Object.hasOwn(whole, key) &&
        consistent((partial as Record<string, unknown>)[key], (whole as Record<string, unknown>)[key]),
    );
  }
  return Object.is(partial, whole);
}

// Documents as models write them: compact or indented, any JSON value.
const documents = fc.oneof(
  fc.json(),
  fc.jsonValue().map((value) => JSON.stringify(value, null, 2)),
  fc.jsonValue({ stringUnit: 'binary' }).map((value) => JSON.stringify(value)),
);

describe('parsePartialJson', () => {
  it('gives every prefix of a document a value consistent with the whole one, and the whole its value', () => {
    fc.assert(
      fc.property(documents, (text) => {
        const whole = JSON.parse(text) as unknown;
        for (let end = 0; end <= text.length; end++) {
          const partial = parsePartialJson(text.slice(0, end));
          if (partial !== undefined && !consistent(partial, whole)) return false;
        }
        // A number at the very end may go on; with anything after it, it is complete.
        expect(parsePartialJson(`${text} `)).toEqual(whole);
        return true;
      }),
      { numRuns: 300 },
    );
  });

  it('never throws, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        parsePartialJson(text);
      }),
    );
  });

  it('shows the fields written so far, an unfinished string as its text so far', () => {
    const text = '{"city": "Oslo", "days": [{"t": -3}, {"t": 1.5, "sky": "clou';
    expect(parsePartialJson(text)).toEqual({ city: 'Oslo', days: [{ t: -3 }, { t: 1.5, sky: 'clou' }] });
    expect(parsePartialJson('{"city": "Os')).toEqual({ city: 'Os' });
    expect(parsePartialJson('{"city": "Oslo", "tem')).toEqual({ city: 'Oslo' });
    expect(parsePartialJson('{"city": "Oslo", "temp": ')).toEqual({ city: 'Oslo' });
  });

  it('leaves out a number or literal still being written, and an escape cut in the middle', () => {
    expect(parsePartialJson('{"n": 1')).toEqual({});
    expect(parsePartialJson('{"n": 12,')).toEqual({ n: 12 });
    expect(parsePartialJson('[true, fal')).toEqual([true]);
    expect(parsePartialJson('"a\\')).toBe('a');
    expect(parsePartialJson('"a\\u00')).toBe('a');
    expect(parsePartialJson('"a\\u00e9')).toBe('aé');
    expect(parsePartialJson('12')).toBeUndefined();
    expect(parsePartialJson('')).toBeUndefined();
  });

  it('is undefined for text that cannot start a JSON document', () => {
    for (const text of ['Sure! Here is', '{city: 1}', '{"a" 1}', '[1 2]', '{"a": tx', '"\\x"', '-']) {
      expect(parsePartialJson(`${text} `)).toBeUndefined();
    }
  });

  it('keeps a "__proto__" key as a field, as JSON.parse does', () => {
    const parsed = parsePartialJson('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
