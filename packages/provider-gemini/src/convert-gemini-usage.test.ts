import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertGeminiUsage } from './convert-gemini-usage.js';

describe('convertGeminiUsage', () => {
  it('counts thoughts as output and keeps them as reasoning tokens (captured turn 1)', () => {
    expect(
      convertGeminiUsage({
        promptTokenCount: 11577,
        candidatesTokenCount: 73,
        totalTokenCount: 11680,
        thoughtsTokenCount: 30,
      }),
    ).toEqual({ inputTokens: 11577, outputTokens: 103, totalTokens: 11680, reasoningTokens: 30 });
  });

  it('reports cached prompt tokens as cache reads and a partial chunk as zero output', () => {
    expect(
      convertGeminiUsage({ promptTokenCount: 900, cachedContentTokenCount: 800, totalTokenCount: 900 }),
    ).toEqual({
      inputTokens: 900,
      outputTokens: 0,
      totalTokens: 900,
      cacheReadTokens: 800,
    });
    expect(convertGeminiUsage({})).toEqual({ inputTokens: 0, outputTokens: 0 });
  });

  it('adds up to Gemini’s total: prompt + tool-use prompt + candidates + thoughts', () => {
    const count = fc.option(fc.nat({ max: 1_000_000 }), { nil: undefined });
    fc.assert(
      fc.property(count, count, count, count, count, (prompt, toolUse, candidates, thoughts, cached) => {
        const totalTokenCount = (prompt ?? 0) + (toolUse ?? 0) + (candidates ?? 0) + (thoughts ?? 0);
        const usage = convertGeminiUsage({
          promptTokenCount: prompt,
          toolUsePromptTokenCount: toolUse,
          candidatesTokenCount: candidates,
          thoughtsTokenCount: thoughts,
          cachedContentTokenCount: cached,
          totalTokenCount,
        });
        expect(usage.inputTokens + usage.outputTokens).toBe(totalTokenCount);
        expect(usage.reasoningTokens ?? 0).toBeLessThanOrEqual(usage.outputTokens);
        expect(usage.cacheReadTokens).toBe(cached);
      }),
      { numRuns: 100 },
    );
  });
});
