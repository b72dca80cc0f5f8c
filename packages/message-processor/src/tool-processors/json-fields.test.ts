import { describe, expect, it } from 'vitest';
import { countField, fieldOf, stringField, stringsField } from './json-fields.js';

describe('json fields', () => {
  it('reads own fields only, of objects only', () => {
    expect(fieldOf({ a: 1 }, 'b', 'a')).toBe(1);
    expect(fieldOf({}, 'constructor')).toBeUndefined();
    expect(fieldOf(['x'], '0')).toBeUndefined();
    expect(fieldOf('text', 'length')).toBeUndefined();
    expect(fieldOf(null, 'a')).toBeUndefined();
  });

  it('takes the first field of the right type', () => {
    expect(stringField({ file_path: 3, path: 'a.ts' }, 'file_path', 'path')).toBe('a.ts');
    expect(countField({ a: -1, b: 1.5, c: 4 }, 'a', 'b', 'c')).toBe(4);
    expect(stringsField({ paths: ['a', 1, 'b'] }, 'paths')).toEqual(['a', 'b']);
    expect(stringsField({ paths: 'a' }, 'paths')).toBeUndefined();
  });
});
