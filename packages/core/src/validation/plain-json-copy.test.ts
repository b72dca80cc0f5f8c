import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyJsValue } from '../../test/arbitraries.js';
import { CairnError } from '../errors/cairn-error.js';
import { copyPlainJson } from './plain-json-copy.js';

const copy = (value: unknown, maxDepth = 64) => copyPlainJson(value, maxDepth, 'value');

function refusal(value: unknown, maxDepth = 64): string {
  try {
    copy(value, maxDepth);
  } catch (error) {
    if (CairnError.is(error, 'INVALID_MESSAGE')) return error.message;
    throw error;
  }
  throw new Error('expected copyPlainJson to refuse the value');
}

const roundTrip = (value: unknown) => JSON.parse(JSON.stringify(value));

function nested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < levels; level++) value = level % 2 === 0 ? { k: value } : [value];
  return value;
}

class Point {
  constructor(readonly x: number) {}
}

class List extends Array<number> {}

describe('copyPlainJson', () => {
  it('copies plain JSON into new objects and arrays equal to what JSON would give back', () => {
    const value = { a: [1, 'two', null, true, { b: -1.5 }], c: {}, d: [] };
    const copied = copy(value) as typeof value;
    expect(copied).toStrictEqual(value);
    expect(copied).not.toBe(value);
    expect(copied.a).not.toBe(value.a);
    expect(copied.a[4]).not.toBe(value.a[4]);
  });

  it('gives what a JSON round trip gives for what JSON keeps faithfully', () => {
    const nullPrototype = Object.assign(Object.create(null) as Record<string, unknown>, { k: 1 });
    const value = {
      gone: undefined,
      zero: -0,
      list: [-0],
      nullPrototype,
      ...JSON.parse('{"__proto__":{"x":1}}'),
    };
    const copied = copy(value) as Record<string, unknown>;
    expect(copied).toStrictEqual(roundTrip(value));
    expect(Object.hasOwn(copied, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
    expect(Object.is(copied.zero, 0)).toBe(true);
  });

  it('refuses what JSON would change, naming where it is', () => {
    const cases: [unknown, string][] = [
      [{ at: { toJSON: () => 'other' } }, 'at at: an object with a toJSON method'],
      [{ when: new Date(0) }, 'at when: an instance of Date is not plain JSON'],
      [{ m: new Map() }, 'at m: an instance of Map is not plain JSON'],
      [{ list: [new Point(1)] }, 'at list[0]: an instance of Point is not plain JSON'],
      [{ s: Object('text') }, 'at s: an instance of String is not plain JSON'],
      [{ o: Object.create({ inherited: 1 }) }, 'at o: an object with a custom prototype is not plain JSON'],
      [{ n: Number.NaN }, 'at n: NaN is not a JSON number'],
      [{ n: [Number.NEGATIVE_INFINITY] }, 'at n[0]: -Infinity is not a JSON number'],
      [{ a: [1, undefined] }, 'at a[1]: undefined is not JSON'],
      [{ a: new Array(2) }, 'at a[0]: undefined is not JSON'],
      [{ f: () => 1 }, 'at f: a function is not JSON'],
      [{ s: Symbol('s') }, 'at s: a symbol is not JSON'],
      [{ b: 1n }, 'at b: a BigInt is not JSON'],
      [Object.assign([1], { toJSON: () => [] }), 'at (root): an object with a toJSON method'],
      [{ list: List.from([1]) }, 'at list: an instance of List is not plain JSON'],
      [{ bytes: new Uint8Array(1) }, 'at bytes: an instance of Uint8Array is not plain JSON'],
    ];
    for (const [value, expected] of cases) expect(refusal(value)).toContain(expected);
  });

  it("copies another realm's plain objects and arrays into this realm's", () => {
    const foreign = runInNewContext('({ list: [1, { b: 2 }], bare: Object.create(null) })');
    const copied = copy(foreign) as { list: unknown[] };
    expect(copied).toStrictEqual({ list: [1, { b: 2 }], bare: {} });
    expect(Object.getPrototypeOf(copied.list)).toBe(Array.prototype);
    expect(refusal(runInNewContext('({ when: new Date(0) })'))).toContain(
      'at when: an instance of Date is not plain JSON',
    );
  });

  it('refuses cycles at the first repeat, not at the depth limit', () => {
    const value: Record<string, unknown> = { name: 'loop' };
    value.children = [{ parent: value }];
    expect(refusal({ root: value })).toContain('at root.children[0].parent: a cycle');
  });

  it('copies a value shared by two branches (a repeat that is not a cycle)', () => {
    const shared = { x: 1 };
    expect(copy({ a: shared, b: [shared] })).toStrictEqual({ a: { x: 1 }, b: [{ x: 1 }] });
  });

  it('accepts exactly maxDepth levels (the value itself is the first) and refuses one more', () => {
    expect(copy(nested(3), 4)).toStrictEqual(nested(3));
    expect(copy(nested(4), 4)).toStrictEqual(nested(4));
    expect(refusal(nested(5), 4)).toContain('at k[0].k[0]: nested deeper than 4 levels');
  });

  it('refuses 100,000 levels with INVALID_MESSAGE, not a stack overflow', () => {
    expect(refusal(nested(100_000))).toContain('nested deeper than 64 levels');
  });

  it('reads each property once and refuses one whose reading throws', () => {
    let reads = 0;
    const value = {
      get once() {
        reads++;
        return reads === 1 ? 'first' : 2;
      },
    };
    expect(copy(value)).toStrictEqual({ once: 'first' });
    expect(reads).toBe(1);
    const throwing = {
      get bad(): unknown {
        throw new Error('boom');
      },
    };
    expect(refusal({ inner: throwing })).toContain('at inner.bad: reading it threw: boom');
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    expect(refusal({ p: revoked.proxy })).toContain('at p: reading it threw');
  });

  it('whatever it accepts, JSON gives back unchanged; whatever JSON keeps, it accepts', () => {
    const anything = anyJsValue({ maxDepth: 4 });
    fc.assert(
      fc.property(anything, (value) => {
        let copied: unknown;
        try {
          copied = copy(value);
        } catch (error) {
          expect(CairnError.is(error, 'INVALID_MESSAGE')).toBe(true);
          return;
        }
        expect(copied).toStrictEqual(roundTrip(value));
        expect(roundTrip(copied)).toStrictEqual(copied);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 10 }), (value) => {
        expect(copy(value)).toStrictEqual(roundTrip(value));
      }),
      { numRuns: 100 },
    );
  });
});
