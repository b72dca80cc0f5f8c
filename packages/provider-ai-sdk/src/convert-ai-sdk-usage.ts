import { definedFields, type TokenUsage } from '@cairn/core';
import type { AiSdkUsage, AiSdkV2Usage, AiSdkV4Usage } from './ai-sdk-types.js';

/**
 * The AI SDK's usage → `TokenUsage`. Both count cached input tokens within the input tokens and
 * reasoning tokens within the output tokens, as Cairn does; an unknown count is 0, an unknown
 * detail is left out.
 */
export function convertAiSdkUsage(usage: AiSdkUsage): TokenUsage {
  if (typeof usage.inputTokens === 'object') {
    const { inputTokens, outputTokens } = usage as AiSdkV4Usage;
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
  const flat = usage as AiSdkV2Usage;
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
