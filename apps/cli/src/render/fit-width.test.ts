import { describe, expect, it } from 'vitest';
import { fitWidth, flattenLines } from './fit-width.js';
import { formatDuration } from './format-duration.js';

describe('fitWidth', () => {
  it('cuts a long line with an ellipsis, to the width', () => {
    expect(fitWidth('Updated src/components/button.tsx', 20)).toBe('Updated src/compone…');
    expect(fitWidth('short', 20)).toBe('short');
    expect(fitWidth('no width known', undefined)).toBe('no width known');
  });

  it('keeps a few characters on a tiny terminal and never splits a surrogate pair', () => {
    expect(fitWidth('abcdefghijklmnop', 2)).toBe('abcdefg…');
    expect(fitWidth('abcdef😀xyz', 8)).toBe('abcdef…');
  });
});

describe('flattenLines', () => {
  it('joins lines with single spaces', () => {
    expect(flattenLines('  first\n\n  second \r\nthird\n')).toBe('first second third');
  });
});

describe('formatDuration', () => {
  it('picks a unit a person reads at a glance', () => {
    expect(formatDuration(850)).toBe('850ms');
    expect(formatDuration(2_345)).toBe('2.3s');
    expect(formatDuration(185_000)).toBe('3m 05s');
  });
});
