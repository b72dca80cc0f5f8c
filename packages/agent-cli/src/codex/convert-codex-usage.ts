import type { TokenUsage } from '@cairn/core';
import { countOf, isRecord } from './codex-event-factory.js';

/**
 * The `usage` of a `turn.completed` line. Codex counts cached tokens inside `input_tokens` and
 * reasoning inside `output_tokens`, as `TokenUsage` does. The counts are the thread's totals so
 * far: a resumed thread's first turn includes the tokens of the runs before it.
 */
export function usageFromCodex(usage: unknown): TokenUsage | undefined {
  if (!isRecord(usage)) return undefined;
  const inputTokens = countOf(usage.input_tokens);
  const outputTokens = countOf(usage.output_tokens);
  if (inputTokens === undefined || outputTokens === undefined) return undefined;
  const result: TokenUsage = { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
  const cacheRead = countOf(usage.cached_input_tokens);
  if (cacheRead !== undefined) result.cacheReadTokens = cacheRead;
  const cacheWrite = countOf(usage.cache_write_input_tokens);
  if (cacheWrite !== undefined) result.cacheWriteTokens = cacheWrite;
  const reasoning = countOf(usage.reasoning_output_tokens);
  if (reasoning !== undefined) result.reasoningTokens = reasoning;
  return result;
}

/** The usage fields `usageFromCodex` maps. */
export const CODEX_USAGE_FIELDS: ReadonlySet<string> = new Set([
  'input_tokens',
  'cached_input_tokens',
  'cache_write_input_tokens',
  'output_tokens',
  'reasoning_output_tokens',
]);
