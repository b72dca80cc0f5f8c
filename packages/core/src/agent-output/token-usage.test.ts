import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addTokenUsage, type TokenUsage } from './token-usage.js';

describe('addTokenUsage', () => {
  it('adds the required counts and adds no total when neither side has one', () => {
    expect(addTokenUsage({ inputTokens: 10, outputTokens: 2 }, { inputTokens: 5, outputTokens: 3 })).toEqual({
      inputTokens: 15,
      outputTokens: 5,
    });
  });

  it('counts a missing total as input + output, so the sum never undercounts', () => {
    const sum = addTokenUsage(
      { inputTokens: 10, outputTokens: 2 },
      { inputTokens: 5, outputTokens: 3, totalTokens: 8 },
    );
    expect(sum.totalTokens).toBe(20);
  });

  it('keeps a detail count present on either side, treating the other side as 0', () => {
    const sum = addTokenUsage(
      { inputTokens: 10, outputTokens: 2, cacheReadTokens: 8 },
      { inputTokens: 5, outputTokens: 3, reasoningTokens: 1 },
    );
    expect(sum).toEqual({ inputTokens: 15, outputTokens: 5, cacheReadTokens: 8, reasoningTokens: 1 });
  });

  it('is commutative and associative', () => {
    const usage: fc.Arbitrary<TokenUsage> = fc.record(
      {
        inputTokens: fc.nat(1e6),
        outputTokens: fc.nat(1e6),
        totalTokens: fc.nat(3e6),
        cacheReadTokens: fc.nat(1e6),
      },
      { requiredKeys: ['inputTokens', 'outputTokens'] },
    );
    fc.assert(
      fc.property(usage, usage, usage, (a, b, c) => {
        expect(addTokenUsage(a, b)).toEqual(addTokenUsage(b, a));
        expect(addTokenUsage(addTokenUsage(a, b), c)).toEqual(addTokenUsage(a, addTokenUsage(b, c)));
      }),
      { numRuns: 100 },
    );
  });
});
