import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countOf, firstLine, hasSeveralLines, singleLine, truncate } from './summary-text.js';

// The lines as the summaries read them, written the plain way: split at every line break, trimmed,
// blank ones left out.
const nonBlankLines = (text: string) =>
  text
    .split(/[\n\r\v\f\u2028\u2029]/)
    .map((line) => line.trim())
    .filter((line) => line !== '');

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

  it('reads the lines as splitting the text at every line break does', () => {
    const piece = fc.constantFrom(
      'a',
      'b c',
      ' ',
      '\t',
      '\n',
      '\r',
      '\r\n',
      '\v',
      '\f',
      '\u2028',
      '\u2029',
      '\u00a0',
      'é',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join('')),
          fc.string(),
        ),
        (text) => {
          const lines = nonBlankLines(text);
          expect(firstLine(text)).toBe(lines[0] ?? '');
          expect(hasSeveralLines(text)).toBe(lines.length > 1);
        },
      ),
      { numRuns: 1000 },
    );
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
