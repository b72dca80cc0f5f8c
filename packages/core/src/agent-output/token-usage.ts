import { z } from 'zod';

const tokens = z.number().int().nonnegative();

/**
 * Token counts of one model call (or, summed, of a turn or session). `inputTokens` counts every
 * input token, cached ones included; `cacheReadTokens`/`cacheWriteTokens` say how many of them hit
 * or filled the provider's prompt cache. `reasoningTokens` are part of `outputTokens`.
 */
export const TokenUsageSchema = z.object({
  inputTokens: tokens,
  outputTokens: tokens,
  totalTokens: tokens.optional(),
  cacheReadTokens: tokens.optional(),
  cacheWriteTokens: tokens.optional(),
  reasoningTokens: tokens.optional(),
});

export type TokenUsage = z.infer<typeof TokenUsageSchema>;

const DETAIL_COUNTS = ['cacheReadTokens', 'cacheWriteTokens', 'reasoningTokens'] as const;

const totalOf = (usage: TokenUsage): number => usage.totalTokens ?? usage.inputTokens + usage.outputTokens;

/**
 * Adds two usages (of two calls or turns). A detail count present on one side only is summed with
 * 0 for the other; a missing total counts as input + output, so totals never undercount.
 */
export function addTokenUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  const sum: TokenUsage = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
  };
  if (a.totalTokens !== undefined || b.totalTokens !== undefined) sum.totalTokens = totalOf(a) + totalOf(b);
  for (const key of DETAIL_COUNTS) {
    if (a[key] !== undefined || b[key] !== undefined) sum[key] = (a[key] ?? 0) + (b[key] ?? 0);
  }
  return sum;
}
