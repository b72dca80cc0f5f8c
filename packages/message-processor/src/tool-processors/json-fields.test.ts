import { describe, expect, it } from 'vitest';
import { countField, fieldOf, stringField, stringsField } from './json-fields.js';

describe('json fields', () => {
  it('reads own fields only, of objects only', () => {
    expect(fieldOf({ a: 1 }, 'a')).toBe(1);
    expect(fieldOf({}, 'constructor')).toBeUndefined();
    expect(stringField(Object.create({ inherited: 'x' }), 'inherited')).toBeUndefined();
    expect(fieldOf(['x'], '0')).toBeUndefined();
    expect(fieldOf('text', 'length')).toBeUndefined();
    expect(fieldOf(null, 'a')).toBeUndefined();
  });

  it('reads a field only when it has the right type', () => {
    expect(stringField({ file_path: 3 }, 'file_path')).toBeUndefined();
    expect(stringField({ path: 'a.ts' }, 'path')).toBe('a.ts');
    expect(countField({ a: -1, b: 1.5, c: 4 }, 'a')).toBeUndefined();
    expect(countField({ a: -1, b: 1.5, c: 4 }, 'b')).toBeUndefined();
    expect(countField({ a: -1, b: 1.5, c: 4 }, 'c')).toBe(4);
    expect(stringsField({ paths: 'a' }, 'paths')).toBeUndefined();
  });

  it('keeps the strings of an array, in a new array', () => {
    expect(stringsField({ paths: ['a', 1, 'b'] }, 'paths')).toEqual(['a', 'b']);
    const paths = ['a', 'b'];
    const strings = stringsField({ paths }, 'paths');
    expect(strings).toEqual(paths);
    expect(strings).not.toBe(paths);
  });
});
