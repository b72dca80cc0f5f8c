import { describe, expect, it } from 'vitest';
import { colorEnabled, createColors } from './colors.js';
import { ANSI } from './test-support.js';

const terminal = { write: () => true, isTTY: true };
const pipe = { write: () => true };

describe('colorEnabled', () => {
  it('colours a terminal only', () => {
    expect(colorEnabled(terminal, {})).toBe(true);
    expect(colorEnabled(pipe, {})).toBe(false);
    expect(colorEnabled(terminal, { TERM: 'dumb' })).toBe(false);
  });

  it('obeys --no-color, then NO_COLOR, then FORCE_COLOR and --color', () => {
    expect(colorEnabled(terminal, { FORCE_COLOR: '1' }, false)).toBe(false);
    expect(colorEnabled(terminal, { NO_COLOR: '1', FORCE_COLOR: '1' })).toBe(false);
    expect(colorEnabled(terminal, { NO_COLOR: '' })).toBe(true);
    expect(colorEnabled(pipe, { FORCE_COLOR: '1' })).toBe(true);
    expect(colorEnabled(pipe, { FORCE_COLOR: '0' })).toBe(false);
    expect(colorEnabled(pipe, {}, true)).toBe(true);
  });
});

describe('createColors', () => {
  it('gives identity functions when off and ANSI codes when on', () => {
    expect(createColors(false).red('x')).toBe('x');
    expect(createColors(true).red('x')).toContain(ANSI);
  });
});
