import type { ConversationMessage } from './conversation-message.js';
import type { ModelMessage } from './model-message.js';
import { toOpenAIMessage } from './to-openai-message.js';

/**
 * The message as a `ModelAdapter` receives it: `toOpenAIMessage`'s shape plus the provider-neutral
 * replay data — `providerMetadata`, `reasoning` on assistant messages, `isError` on tool results.
 * Absent or empty extras add no key, so a plain message converts exactly as `toOpenAIMessage` does.
 */
export function toModelMessage(message: ConversationMessage): ModelMessage {
  const converted: ModelMessage = toOpenAIMessage(message);
  if (converted.role === 'assistant' && message.reasoning?.length) converted.reasoning = message.reasoning;
  if (converted.role === 'tool' && message.isError) converted.isError = true;
  if (message.providerMetadata && Object.keys(message.providerMetadata).length > 0) {
    converted.providerMetadata = message.providerMetadata;
  }
  return converted;
}
