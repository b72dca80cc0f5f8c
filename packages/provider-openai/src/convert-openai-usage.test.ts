import { TokenUsageSchema } from '@cairn/core';
import fc from 'fast-check';
import type { CompletionUsage } from 'openai/resources/completions';
import { describe, expect, it } from 'vitest';
import { convertOpenAIUsage } from './convert-openai-usage.js';

describe('convertOpenAIUsage', () => {
  it('maps prompt, completion and total tokens with cache and reasoning details', () => {
    expect(
      convertOpenAIUsage({
        prompt_tokens: 1200,
        completion_tokens: 300,
        total_tokens: 1500,
        prompt_tokens_details: { cached_tokens: 1024, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 256, audio_tokens: 0 },
      }),
    ).toEqual({
      inputTokens: 1200,
      outputTokens: 300,
      totalTokens: 1500,
      cacheReadTokens: 1024,
      reasoningTokens: 256,
    });
  });

  it('keeps cache writes where the server reports them', () => {
    expect(
      convertOpenAIUsage({
        prompt_tokens: 10,
        completion_tokens: 1,
        total_tokens: 11,
        prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 8 },
      }),
    ).toEqual({ inputTokens: 10, outputTokens: 1, totalTokens: 11, cacheReadTokens: 0, cacheWriteTokens: 8 });
  });

  it('tolerates the partial usage of compatible servers', () => {
    const partial = {
      prompt_tokens: 7,
      completion_tokens: null,
      prompt_tokens_details: null,
    } as unknown as CompletionUsage;
    expect(convertOpenAIUsage(partial)).toEqual({ inputTokens: 7, outputTokens: 0 });
  });

  it('always gives a valid TokenUsage and keeps every valid count (property)', () => {
    const anyCount = fc.oneof(
      fc.nat(),
      fc.integer(),
      fc.double(),
      fc.constant(null),
      fc.constant(undefined),
      fc.string(),
    );
    const details = (keys: string[]) =>
      fc.option(fc.record(Object.fromEntries(keys.map((key) => [key, anyCount])), { requiredKeys: [] }), {
        nil: undefined,
      });
    const usage = fc.record({
      prompt_tokens: anyCount,
      completion_tokens: anyCount,
      total_tokens: anyCount,
      prompt_tokens_details: details(['cached_tokens', 'cache_write_tokens']),
      completion_tokens_details: details(['reasoning_tokens']),
    });
    fc.assert(
      fc.property(usage, (raw) => {
        const converted = convertOpenAIUsage(raw as unknown as CompletionUsage);
        expect(TokenUsageSchema.parse(converted)).toEqual(converted);
        const valid = (value: unknown) =>
          typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
        if (valid(raw.prompt_tokens)) expect(converted.inputTokens).toBe(raw.prompt_tokens);
        if (valid(raw.completion_tokens)) expect(converted.outputTokens).toBe(raw.completion_tokens);
        expect(converted.totalTokens).toBe(valid(raw.total_tokens) ? raw.total_tokens : undefined);
        const cached = raw.prompt_tokens_details?.cached_tokens;
        expect(converted.cacheReadTokens).toBe(valid(cached) ? cached : undefined);
        const reasoning = raw.completion_tokens_details?.reasoning_tokens;
        expect(converted.reasoningTokens).toBe(valid(reasoning) ? reasoning : undefined);
      }),
      { numRuns: 100 },
    );
  });
});
