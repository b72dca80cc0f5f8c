import { TokenUsageSchema } from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AnthropicUsage,
  convertAnthropicUsage,
  mergeAnthropicUsage,
} from './convert-anthropic-usage.js';

const tokens = fc.option(fc.nat({ max: 10_000_000 }), { nil: null });
const usageArb: fc.Arbitrary<AnthropicUsage> = fc.record(
  {
    input_tokens: tokens,
    output_tokens: tokens,
    cache_read_input_tokens: tokens,
    cache_creation_input_tokens: tokens,
    output_tokens_details: fc.option(fc.record({ thinking_tokens: fc.nat({ max: 10_000 }) }), { nil: null }),
  },
  { requiredKeys: [] },
);

describe('convertAnthropicUsage', () => {
  it('counts cache reads and writes as input and reports them on their own', () => {
    expect(
      convertAnthropicUsage({
        input_tokens: 100,
        output_tokens: 20,
        cache_read_input_tokens: 1000,
        cache_creation_input_tokens: 50,
        output_tokens_details: { thinking_tokens: 7 },
      }),
    ).toEqual({
      inputTokens: 1150,
      outputTokens: 20,
      totalTokens: 1170,
      cacheReadTokens: 1000,
      cacheWriteTokens: 50,
      reasoningTokens: 7,
    });
  });

  it('leaves out the counts the API did not give', () => {
    expect(convertAnthropicUsage({ input_tokens: 3, output_tokens: 4 })).toEqual({
      inputTokens: 3,
      outputTokens: 4,
      totalTokens: 7,
    });
    expect(convertAnthropicUsage({ cache_read_input_tokens: null, output_tokens_details: null })).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      totalTokens: 0,
    });
  });

  it('always gives a valid TokenUsage whose total is input + output and whose input covers the cache', () => {
    fc.assert(
      fc.property(usageArb, (raw) => {
        const usage = convertAnthropicUsage(raw);
        expect(TokenUsageSchema.safeParse(usage).success).toBe(true);
        expect(usage.totalTokens).toBe(usage.inputTokens + usage.outputTokens);
        expect(usage.inputTokens).toBeGreaterThanOrEqual(
          (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0),
        );
      }),
      { numRuns: 100 },
    );
  });
});

describe('mergeAnthropicUsage', () => {
  it('takes the cumulative output count from message_delta and keeps message_start input', () => {
    const start = {
      input_tokens: 19024,
      output_tokens: 1,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    };
    const merged = mergeAnthropicUsage(start, {
      output_tokens: 69,
      input_tokens: null,
      cache_read_input_tokens: null,
    });
    expect(convertAnthropicUsage(merged)).toEqual({
      inputTokens: 19024,
      outputTokens: 69,
      totalTokens: 19093,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
  });

  it('a number in the update always wins; null or absent never erases', () => {
    fc.assert(
      fc.property(usageArb, usageArb, (previous, update) => {
        const merged = mergeAnthropicUsage(previous, update);
        for (const key of ['input_tokens', 'output_tokens', 'cache_read_input_tokens'] as const) {
          expect(merged[key]).toBe(update[key] ?? previous[key]);
        }
      }),
      { numRuns: 100 },
    );
  });
});
