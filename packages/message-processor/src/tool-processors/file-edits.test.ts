import { describe, expect, it } from 'vitest';
import { applyEdits, multipleEditsOf, singleEditOf } from './file-edits.js';

describe('file edits', () => {
  it('reads single and multiple edits', () => {
    expect(singleEditOf({ old_string: 'a', new_string: 'b' })).toEqual([
      { oldString: 'a', newString: 'b', replaceAll: false },
    ]);
    expect(singleEditOf({ old_string: 'a', new_string: 'b', allow_multiple: true })[0]?.replaceAll).toBe(
      true,
    );
    expect(singleEditOf({ old_string: 'a', new_string: 'b', expected_replacements: 2 })[0]?.replaceAll).toBe(
      true,
    );
    expect(singleEditOf({ old_string: 'a' })).toEqual([]);
    expect(
      multipleEditsOf({ edits: [{ old_string: 'a', new_string: 'b' }, 'odd', { old_string: 1 }] }),
    ).toEqual([{ oldString: 'a', newString: 'b', replaceAll: false }]);
  });

  it('applies edits in order, inserting the new text literally', () => {
    const edits = [
      { oldString: 'a', newString: '$&$&', replaceAll: false },
      { oldString: 'b', newString: 'c', replaceAll: true },
    ];
    expect(applyEdits('a a b b', edits)).toBe('$&$& a c c');
  });

  it('creates the file from an empty old string only when it is empty', () => {
    expect(applyEdits('', [{ oldString: '', newString: 'new', replaceAll: false }])).toBe('new');
    expect(applyEdits('x', [{ oldString: '', newString: 'new', replaceAll: false }])).toBeUndefined();
  });

  it('returns undefined when an edit does not apply or there is none', () => {
    expect(applyEdits('abc', [{ oldString: 'z', newString: 'y', replaceAll: false }])).toBeUndefined();
    expect(applyEdits('abc', [])).toBeUndefined();
  });
});
