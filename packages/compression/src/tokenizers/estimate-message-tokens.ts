import type { ModelMessage } from '@cairn/core';
import { contentTokens } from './content-tokens.js';
import type { EstimateProfile } from './estimate-profile.js';
import { estimateTextTokens } from './estimate-text-tokens.js';

/**
 * Estimated tokens of one message in a request: its text, its images and files (by the rules of
 * `profile.media`), its tool calls (name and arguments) and its reasoning (Cairn's Anthropic and
 * Gemini adapters send it back), plus the profile's framing.
 */
export function estimateMessageTokens(message: ModelMessage, profile: EstimateProfile): number {
  const text = (value: string) => estimateTextTokens(value, profile);
  let tokens = profile.message + contentTokens(message.content, profile.media, text);
  if (message.role === 'assistant') {
    for (const call of message.tool_calls ?? []) {
      tokens +=
        profile.toolCall +
        estimateTextTokens(call.function.name, profile) +
        estimateTextTokens(call.function.arguments, profile);
    }
    for (const part of message.reasoning ?? []) tokens += estimateTextTokens(part.text, profile);
  }
  return Math.ceil(tokens);
}
