import type { TokenUsage } from '@cairn/core';
import type { CompletionUsage } from 'openai/resources/completions';
import type { ResponseUsage } from 'openai/resources/responses/responses';

/**
 * Chat Completions usage as core's `TokenUsage`: `prompt_tokens` already include the cached ones
 * and `completion_tokens` the reasoning ones, as core counts them. Compatible servers send partial
 * or odd usage (nulls, no details, floats), so any count that is not a non-negative integer is
 * left out (or 0 for the two required ones) rather than breaking the event schema.
 */
export function convertOpenAIUsage(usage: CompletionUsage): TokenUsage {
  const converted: TokenUsage = {
    inputTokens: count(usage.prompt_tokens) ?? 0,
    outputTokens: count(usage.completion_tokens) ?? 0,
  };
  return withCounts(converted, {
    totalTokens: count(usage.total_tokens),
    cacheReadTokens: count(usage.prompt_tokens_details?.cached_tokens),
    cacheWriteTokens: count(usage.prompt_tokens_details?.cache_write_tokens),
    reasoningTokens: count(usage.completion_tokens_details?.reasoning_tokens),
  });
}

/**
 * Responses API usage as core's `TokenUsage`: `input_tokens` include the cached ones and
 * `output_tokens` the reasoning ones, as core counts them.
 */
export function convertOpenAIResponsesUsage(usage: ResponseUsage): TokenUsage {
  return withCounts(
    { inputTokens: count(usage.input_tokens) ?? 0, outputTokens: count(usage.output_tokens) ?? 0 },
    {
      totalTokens: count(usage.total_tokens),
      cacheReadTokens: count(usage.input_tokens_details?.cached_tokens),
      reasoningTokens: count(usage.output_tokens_details?.reasoning_tokens),
    },
  );
}

type OptionalCounts = Partial<
  Record<'totalTokens' | 'cacheReadTokens' | 'cacheWriteTokens' | 'reasoningTokens', number>
>;

function withCounts(
  converted: TokenUsage,
  optional: { [K in keyof OptionalCounts]: number | undefined },
): TokenUsage {
  for (const [key, value] of Object.entries(optional) as [keyof OptionalCounts, number | undefined][]) {
    if (value !== undefined) converted[key] = value;
  }
  return converted;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}
