import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTING_NAMES, howToSet, settingNames, withValue } from './setting-names.js';

describe('setting names', () => {
  it('default to the CLI flags, each replaceable alone', () => {
    expect(settingNames(undefined)).toEqual(DEFAULT_SETTING_NAMES);
    expect(settingNames({ model: 'CAIRN_MODEL' })).toEqual({
      ...DEFAULT_SETTING_NAMES,
      model: 'CAIRN_MODEL',
    });
  });

  it('say "set" for variables and "pass" for flags, variables first, each name once', () => {
    expect(howToSet(['--model'])).toBe('pass --model');
    expect(howToSet(['GEMINI_API_KEY', 'GOOGLE_API_KEY', '--api-key'])).toBe(
      'set GEMINI_API_KEY or GOOGLE_API_KEY or pass --api-key',
    );
    expect(howToSet(['--api-key', 'X', 'X'])).toBe('set X or pass --api-key');
    expect(withValue('--store', 'postgres')).toBe('--store postgres');
    expect(withValue('CAIRN_STORE', 'postgres')).toBe('CAIRN_STORE=postgres');
  });

  it('name every given name once, whatever the names', () => {
    const name = fc.stringMatching(/^-{0,2}[A-Z_]{1,12}$/);
    fc.assert(
      fc.property(fc.array(name, { minLength: 1, maxLength: 6 }), (names) => {
        const phrase = howToSet(names);
        expect(phrase).toMatch(/^(set|pass) /);
        const words = phrase.split(' ').filter((word) => !['set', 'pass', 'or'].includes(word));
        expect(words.sort()).toEqual([...new Set(names)].sort());
      }),
      { numRuns: 100 },
    );
  });
});
