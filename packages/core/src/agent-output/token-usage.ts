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

const OPTIONAL_COUNTS = ['totalTokens', 'cacheReadTokens', 'cacheWriteTokens', 'reasoningTokens'] as const;

/** Adds usages field by field; an optional count is present in the sum if it is in either side. */
export function addTokenUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  const sum: TokenUsage = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
  };
  for (const key of OPTIONAL_COUNTS) {
    if (a[key] !== undefined || b[key] !== undefined) sum[key] = (a[key] ?? 0) + (b[key] ?? 0);
  }
  return sum;
}
