import { describe, expect, it } from 'vitest';
import { convertAiSdkUsage } from './convert-ai-sdk-usage.js';

describe('convertAiSdkUsage', () => {
  it('reads V3/V4 usage: totals, cache reads and writes, reasoning tokens; unknown details left out', () => {
    expect(
      convertAiSdkUsage({
        inputTokens: { total: 120, noCache: 20, cacheRead: 90, cacheWrite: 10 },
        outputTokens: { total: 50, text: 20, reasoning: 30 },
      }),
    ).toEqual({
      inputTokens: 120,
      outputTokens: 50,
      cacheReadTokens: 90,
      cacheWriteTokens: 10,
      reasoningTokens: 30,
    });
    expect(
      convertAiSdkUsage({
        inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 5, text: undefined, reasoning: undefined },
      }),
    ).toEqual({ inputTokens: 0, outputTokens: 5 });
  });

  it('reads V2 usage: flat, with cached input and reasoning tokens', () => {
    expect(
      convertAiSdkUsage({
        inputTokens: 10,
        outputTokens: 4,
        totalTokens: 14,
        cachedInputTokens: 6,
        reasoningTokens: 2,
      }),
    ).toEqual({ inputTokens: 10, outputTokens: 4, totalTokens: 14, cacheReadTokens: 6, reasoningTokens: 2 });
  });
});
