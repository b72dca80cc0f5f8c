import type { LanguageModelV2Usage, LanguageModelV4Usage } from '@ai-sdk/provider';
import { definedFields, type TokenUsage } from '@cairn/core';

/** Usage as V2 shapes it (flat) or V3 and V4 do (`inputTokens.total`, `outputTokens.reasoning`, …). */
export type AiSdkUsage = LanguageModelV2Usage | LanguageModelV4Usage;

/**
 * The AI SDK's usage → `TokenUsage`. Both count cached input tokens within the input tokens and
 * reasoning tokens within the output tokens, as Cairn does; an unknown count is 0, an unknown
 * detail is left out.
 */
export function convertAiSdkUsage(usage: AiSdkUsage): TokenUsage {
  if (typeof usage.inputTokens === 'object') {
    const { inputTokens, outputTokens } = usage as LanguageModelV4Usage;
    return {
      inputTokens: inputTokens.total ?? 0,
      outputTokens: outputTokens.total ?? 0,
      ...definedFields({
        cacheReadTokens: inputTokens.cacheRead,
        cacheWriteTokens: inputTokens.cacheWrite,
        reasoningTokens: outputTokens.reasoning,
      }),
    };
  }
  const flat = usage as LanguageModelV2Usage;
  return {
    inputTokens: flat.inputTokens ?? 0,
    outputTokens: flat.outputTokens ?? 0,
    ...definedFields({
      totalTokens: flat.totalTokens,
      cacheReadTokens: flat.cachedInputTokens,
      reasoningTokens: flat.reasoningTokens,
    }),
  };
}
