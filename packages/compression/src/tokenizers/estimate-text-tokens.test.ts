import { propertyTimeout } from '@cairn/vitest-config/load';
import fc from 'fast-check';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { ESTIMATE_FAMILIES, ESTIMATE_PROFILES } from './estimate-profile.js';
import { estimateTextTokens } from './estimate-text-tokens.js';

const SAMPLES = {
  english:
    'The quick brown fox jumps over the lazy dog. It was a bright cold day in April, and the clocks were striking thirteen. Nobody expected the meeting to last that long.',
  code: [
    'export function mergeSortedRuns(left: number[], right: number[]): number[] {',
    '  const merged: number[] = [];',
    '  while (left.length > 0 && right.length > 0) {',
    '    merged.push((left[0] ?? 0) <= (right[0] ?? 0) ? left.shift()! : right.shift()!);',
    '  }',
    '  return [...merged, ...left, ...right];',
    '}',
  ].join('\n'),
  json: JSON.stringify(
    {
      id: 'msg_0142',
      role: 'tool',
      files: [{ path: 'src/index.ts', size: 1832, modified: '2025-01-04T10:22:31Z' }],
      ok: true,
    },
    null,
    2,
  ),
  chinese: '我们需要在下周之前完成这个项目的测试工作，然后把结果发给客户。请确认所有文件都已经上传到服务器。',
  japanese:
    '東京は日本の首都です。明日は雨が降るそうなので、傘を持って出かけてください。よろしくお願いします。',
  emoji: 'Shipped it 🎉🚀 thanks everyone 🙏 see you tomorrow 👋',
};

const o200kCount = (text: string) => countTokens(text, { disallowedSpecial: new Set() });

describe('estimateTextTokens', () => {
  it('stays within 25% of o200k_base on English, code, JSON, CJK and emoji (generic profile)', () => {
    for (const [kind, text] of Object.entries(SAMPLES)) {
      const ratio = estimateTextTokens(text, ESTIMATE_PROFILES.generic) / o200kCount(text);
      expect(ratio, kind).toBeGreaterThan(0.75);
      expect(ratio, kind).toBeLessThan(1.25);
    }
  });

  it('charges Claude more than a modern BPE for English and code, and about a token per CJK character', () => {
    for (const kind of ['english', 'code', 'json'] as const) {
      expect(estimateTextTokens(SAMPLES[kind], ESTIMATE_PROFILES.anthropic)).toBeGreaterThan(
        estimateTextTokens(SAMPLES[kind], ESTIMATE_PROFILES.generic),
      );
    }
    const han = [...SAMPLES.chinese].length;
    expect(estimateTextTokens(SAMPLES.chinese, ESTIMATE_PROFILES.anthropic) / han).toBeCloseTo(1, 0);
  });

  it('gives Gemini a token per digit', () => {
    expect(estimateTextTokens('1234567890', ESTIMATE_PROFILES.gemini)).toBe(10);
    expect(estimateTextTokens('1234567890', ESTIMATE_PROFILES.generic)).toBe(4 * 1.25);
  });

  it('splits camelCase humps and long runs, and merges a single space into the next word', () => {
    const { generic } = ESTIMATE_PROFILES;
    expect(estimateTextTokens('hello world', generic)).toBeCloseTo(2 * generic.word);
    expect(estimateTextTokens('helloWorld', generic)).toBeCloseTo(2 * generic.word);
    expect(estimateTextTokens('abcdefghijkl', generic)).toBeCloseTo(
      generic.word + 4 * generic.longWordLetter,
    );
    expect(estimateTextTokens('a\n\n    b', generic)).toBeCloseTo(2 * generic.word + generic.whitespaceBreak);
  });

  it(
    'is 0 for empty text, and finite, non-negative and monotonic in appended text for any string',
    () => {
      for (const family of ESTIMATE_FAMILIES)
        expect(estimateTextTokens('', ESTIMATE_PROFILES[family])).toBe(0);
      const textArb = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.string());
      // Every family on each pair of strings: 200 pairs check as many (family, text) cases as 500
      // runs of one random family did, with fewer strings to generate.
      fc.assert(
        fc.property(textArb, textArb, (text, more) => {
          for (const family of ESTIMATE_FAMILIES) {
            const profile = ESTIMATE_PROFILES[family];
            const tokens = estimateTextTokens(text, profile);
            expect(Number.isFinite(tokens), family).toBe(true);
            expect(tokens, family).toBeGreaterThanOrEqual(0);
            expect(estimateTextTokens(text + more, profile), family).toBeGreaterThanOrEqual(tokens);
          }
        }),
        { numRuns: 200 },
      );
    },
    propertyTimeout(30_000),
  );
});
