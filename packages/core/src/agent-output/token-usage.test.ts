import { describe, expect, it } from 'vitest';
import { addTokenUsage } from './token-usage.js';

describe('addTokenUsage', () => {
  it('adds the required counts', () => {
    expect(addTokenUsage({ inputTokens: 10, outputTokens: 2 }, { inputTokens: 5, outputTokens: 3 })).toEqual({
      inputTokens: 15,
      outputTokens: 5,
    });
  });

  it('keeps an optional count present on either side, treating the other side as 0', () => {
    const sum = addTokenUsage(
      { inputTokens: 10, outputTokens: 2, cacheReadTokens: 8 },
      { inputTokens: 5, outputTokens: 3, reasoningTokens: 1, totalTokens: 8 },
    );
    expect(sum).toEqual({
      inputTokens: 15,
      outputTokens: 5,
      cacheReadTokens: 8,
      reasoningTokens: 1,
      totalTokens: 8,
    });
  });
});
