import { describe, expect, it } from 'vitest';
import { countOf, firstLine, hasSeveralLines, singleLine, truncate } from './summary-text.js';

describe('summary text', () => {
  it('takes the first line that is not blank', () => {
    expect(firstLine('\n  \n  Error: boom  \nat x')).toBe('Error: boom');
    expect(firstLine('a\u2028b')).toBe('a');
    expect(firstLine(' \n ')).toBe('');
  });

  it('tells several lines from one', () => {
    expect(hasSeveralLines('a\n\nb')).toBe(true);
    expect(hasSeveralLines('\na\n')).toBe(false);
  });

  it('truncates with an ellipsis, never inside a surrogate pair', () => {
    expect(truncate('abcdef', 6)).toBe('abcdef');
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('ab 😀cd', 5)).toBe('ab…');
  });

  it('puts text on one line', () => {
    expect(singleLine('  a \n\r\n b\u2029c  ')).toBe('a b c');
  });

  it('counts in the singular and the plural', () => {
    expect(countOf(1, 'file')).toBe('1 file');
    expect(countOf(0, 'file')).toBe('0 files');
    expect(countOf(2, 'entry', 'entries')).toBe('2 entries');
  });
});
