import type { TokenUsage } from '@cairn/core';

/**
 * Anthropic's usage counts as the API sends them: whole on `message_start` and on a non-streamed
 * `Message`, partly (nullable) on `message_delta`.
 */
export interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  output_tokens_details?: { thinking_tokens?: number | null } | null;
}

const count = (value: number | null | undefined): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.trunc(value) : undefined;

/**
 * Cairn's usage: Anthropic's `input_tokens` leaves out the cached tokens, which Cairn counts as
 * input, so the cache reads and writes are added back (and also reported on their own).
 */
export function convertAnthropicUsage(usage: AnthropicUsage): TokenUsage {
  const cacheReadTokens = count(usage.cache_read_input_tokens);
  const cacheWriteTokens = count(usage.cache_creation_input_tokens);
  const reasoningTokens = count(usage.output_tokens_details?.thinking_tokens);
  const inputTokens = (count(usage.input_tokens) ?? 0) + (cacheReadTokens ?? 0) + (cacheWriteTokens ?? 0);
  const outputTokens = count(usage.output_tokens) ?? 0;
  // Built field by field, in the order of `{ …, ...definedFields({ cacheReadTokens, cacheWriteTokens, reasoningTokens }) }`.
  const converted: TokenUsage = { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
  if (cacheReadTokens !== undefined) converted.cacheReadTokens = cacheReadTokens;
  if (cacheWriteTokens !== undefined) converted.cacheWriteTokens = cacheWriteTokens;
  if (reasoningTokens !== undefined) converted.reasoningTokens = reasoningTokens;
  return converted;
}

/**
 * Folds a `message_delta` usage into what `message_start` said. The delta's counts are
 * cumulative, so a number there replaces the earlier one; `null` or a missing field keeps it.
 */
export function mergeAnthropicUsage(previous: AnthropicUsage, update: AnthropicUsage): AnthropicUsage {
  const merged: AnthropicUsage = { ...previous };
  for (const key of [
    'input_tokens',
    'output_tokens',
    'cache_read_input_tokens',
    'cache_creation_input_tokens',
  ] as const) {
    const value = update[key];
    if (value !== null && value !== undefined) merged[key] = value;
  }
  const thinkingTokens = update.output_tokens_details?.thinking_tokens;
  if (thinkingTokens !== null && thinkingTokens !== undefined) {
    merged.output_tokens_details = { thinking_tokens: thinkingTokens };
  }
  return merged;
}
