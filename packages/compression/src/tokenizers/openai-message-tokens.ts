import type { ModelMessage } from '@cairn/core';
import { contentTokens } from './content-tokens.js';

// OpenAI's chat framing, as in the cookbook's `num_tokens_from_messages` (and gpt-tokenizer's
// `countChatCompletionTokens`): every message costs 3 tokens plus its role and text; a name costs
// 1 more; the reply is primed with 3; each tool call costs its function name and arguments plus 3.
export const OPENAI_MESSAGE_TOKENS = 3;
export const OPENAI_NAME_TOKENS = 1;
export const OPENAI_TOOL_CALL_TOKENS = 3;
export const OPENAI_REPLY_PRIMING_TOKENS = 3;

/**
 * Tokens of one message in an OpenAI chat request, its images and files by OpenAI's rules (see
 * `openAIImageTokens`: estimates, the text is exact). Reasoning parts and ids are not counted: Chat
 * Completions takes no reasoning back, and ids are not rendered to the model. `ModelMessage` has no
 * `name`, but one carried by an OpenAI-shaped message is counted as OpenAI counts it.
 */
export function countOpenAIMessageTokens(message: ModelMessage, countText: (text: string) => number): number {
  let tokens =
    OPENAI_MESSAGE_TOKENS + countText(message.role) + contentTokens(message.content, 'openai', countText);
  const name = 'name' in message && typeof message.name === 'string' ? message.name : undefined;
  if (name !== undefined) tokens += countText(name) + OPENAI_NAME_TOKENS;
  if (message.role === 'assistant') {
    for (const call of message.tool_calls ?? []) {
      tokens += countText(call.function.name) + countText(call.function.arguments) + OPENAI_TOOL_CALL_TOKENS;
    }
  }
  return tokens;
}
