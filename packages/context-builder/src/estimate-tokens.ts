import { contentText, type ModelMessage } from '@cairn/core';

/** The name `stats.tokensEstimatedBy` gives the built-in estimate. */
export const TOKEN_ESTIMATE_NAME = 'chars/4';

/**
 * A rough token count for when no tokenizer is given: the characters a provider is sent (text,
 * tool call names and arguments, reasoning) divided by 4, rounded up. Images and files count as
 * their placeholder (`[image: chart.png]`); give a tokenizer (`@cairn/compression`'s
 * `createTokenizer`) to count them by the provider's rules.
 */
export function estimateTokens(messages: readonly ModelMessage[]): number {
  let chars = 0;
  for (const message of messages) {
    chars += contentText(message.content, { placeholders: true }).length;
    if (message.role !== 'assistant') continue;
    for (const call of message.tool_calls ?? [])
      chars += call.function.name.length + call.function.arguments.length;
    for (const part of message.reasoning ?? []) chars += part.text.length;
  }
  return Math.ceil(chars / 4);
}
