import type { TokenUsage } from '@cairn/core';
import { countOf, isRecord } from './gemini-cli-event-factory.js';

/**
 * Token totals of a stream-json `result` line's `stats`. `input_tokens` includes cached tokens
 * (the CLI's `input` is the uncached part), which is what `TokenUsage.inputTokens` counts.
 */
export function usageFromStreamStats(stats: unknown): TokenUsage | undefined {
  if (!isRecord(stats)) return undefined;
  const inputTokens = countOf(stats.input_tokens);
  const outputTokens = countOf(stats.output_tokens);
  if (inputTokens === undefined || outputTokens === undefined) return undefined;
  const usage: TokenUsage = { inputTokens, outputTokens };
  const totalTokens = countOf(stats.total_tokens);
  if (totalTokens !== undefined) {
    usage.totalTokens = totalTokens;
    // `output_tokens` leaves out thought tokens, which `total_tokens` counts: the gap is the
    // reasoning, which `TokenUsage` counts inside the output.
    const reasoningTokens = totalTokens - inputTokens - outputTokens;
    if (reasoningTokens > 0) {
      usage.outputTokens = outputTokens + reasoningTokens;
      usage.reasoningTokens = reasoningTokens;
    }
  }
  const cached = countOf(stats.cached);
  if (cached !== undefined) usage.cacheReadTokens = cached;
  return usage;
}

/**
 * Token totals of a `--output-format json` result, summed over `stats.models`. Gemini counts
 * thoughts apart from candidates; `TokenUsage` counts reasoning inside the output.
 */
export function usageFromJsonStats(stats: unknown): TokenUsage | undefined {
  if (!isRecord(stats) || !isRecord(stats.models)) return undefined;
  let usage: Record<keyof TokenUsage, number> | undefined;
  for (const model of Object.values(stats.models)) {
    if (!isRecord(model) || !isRecord(model.tokens)) continue;
    const tokens = model.tokens;
    const thoughts = countOf(tokens.thoughts) ?? 0;
    const inputTokens = countOf(tokens.prompt) ?? countOf(tokens.input) ?? 0;
    const outputTokens = (countOf(tokens.candidates) ?? 0) + thoughts;
    const current = usage ?? {
      inputTokens: 0,
      outputTokens: 0,
      totalTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    };
    current.inputTokens += inputTokens;
    current.outputTokens += outputTokens;
    current.totalTokens += countOf(tokens.total) ?? inputTokens + outputTokens;
    current.cacheReadTokens += countOf(tokens.cached) ?? 0;
    current.reasoningTokens += thoughts;
    usage = current;
  }
  if (usage === undefined) return undefined;
  // Gemini has no cache-write count; leave it out rather than claim 0.
  const { cacheWriteTokens: _none, ...reported } = usage;
  return reported;
}

/** The session's duration when the stats report one. */
export function durationFromStats(stats: unknown): number | undefined {
  if (!isRecord(stats)) return undefined;
  const duration = stats.duration_ms;
  return typeof duration === 'number' && Number.isFinite(duration) && duration >= 0 ? duration : undefined;
}
