import { describe, expect, expectTypeOf, it } from 'vitest';
import { type DefinedFields, definedFields } from './defined-fields.js';

describe('definedFields', () => {
  it('drops the keys whose value is undefined and keeps every other value, falsy ones too', () => {
    const copy = definedFields({ a: 1, b: undefined, c: null, d: 0, e: '', f: false });
    expect(copy).toEqual({ a: 1, c: null, d: 0, e: '', f: false });
    expect(Object.keys(copy)).toEqual(['a', 'c', 'd', 'e', 'f']);
    expect('b' in copy).toBe(false);
  });

  it('keeps the order of the keys it was given', () => {
    expect(Object.keys(definedFields({ z: 1, a: 2, m: 3 }))).toEqual(['z', 'a', 'm']);
  });

  it('returns a new object and reads only own keys', () => {
    const fields = Object.create({ inherited: 1 }) as { own?: number };
    fields.own = 2;
    const copy = definedFields(fields);
    expect(copy).toEqual({ own: 2 });
    expect(copy).not.toBe(fields);
    expect(definedFields({})).toEqual({});
  });

  it('types a maybe-undefined field as optional without undefined, a defined one as required', () => {
    const signal = undefined as AbortSignal | undefined;
    const copy = definedFields({ id: 'x', signal, limit: 3 as number | undefined });
    expectTypeOf(copy).toEqualTypeOf<{ id: string; signal?: AbortSignal; limit?: number }>();
    expectTypeOf<DefinedFields<{ a?: string; b: number }>>().toEqualTypeOf<{ a?: string; b: number }>();
  });
});
