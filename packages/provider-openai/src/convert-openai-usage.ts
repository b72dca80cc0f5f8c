import type { TokenUsage } from '@cairn/core';
import type { CompletionUsage } from 'openai/resources/completions';

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
  const optional = {
    totalTokens: count(usage.total_tokens),
    cacheReadTokens: count(usage.prompt_tokens_details?.cached_tokens),
    cacheWriteTokens: count(usage.prompt_tokens_details?.cache_write_tokens),
    reasoningTokens: count(usage.completion_tokens_details?.reasoning_tokens),
  };
  for (const [key, value] of Object.entries(optional) as [keyof typeof optional, number | undefined][]) {
    if (value !== undefined) converted[key] = value;
  }
  return converted;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}
