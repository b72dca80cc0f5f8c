import type { TokenUsage } from '@cairn/core';
import type { GeminiUsageMetadata } from './gemini-api-types.js';

/**
 * Converts Gemini's `usageMetadata`. Gemini counts thoughts apart from `candidatesTokenCount`;
 * Cairn counts reasoning as part of the output, so output = candidates + thoughts. Tokens of tool
 * use prompts (grounding, code execution) are input the model read.
 */
export function convertGeminiUsage(usage: GeminiUsageMetadata): TokenUsage {
  const converted: TokenUsage = {
    inputTokens: (usage.promptTokenCount ?? 0) + (usage.toolUsePromptTokenCount ?? 0),
    outputTokens: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0),
  };
  if (usage.totalTokenCount !== undefined) converted.totalTokens = usage.totalTokenCount;
  if (usage.cachedContentTokenCount !== undefined) converted.cacheReadTokens = usage.cachedContentTokenCount;
  if (usage.thoughtsTokenCount !== undefined) converted.reasoningTokens = usage.thoughtsTokenCount;
  return converted;
}
