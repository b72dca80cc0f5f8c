import type { ConversationMessage } from './conversation-message.js';
import type { ModelMessage } from './model-message.js';
import { toProtocolMessage } from './to-protocol-message.js';

/**
 * The message as a `ModelAdapter` receives it: the protocol fields (content parts kept as Cairn
 * parts, for each adapter to map) plus the provider-neutral replay data — `providerMetadata`,
 * `reasoning` on assistant messages, `isError` on tool results. Absent or empty extras add no key,
 * so a plain text message converts exactly as `toOpenAIMessage` does.
 */
export function toModelMessage(message: ConversationMessage): ModelMessage {
  const converted = toProtocolMessage(message);
  if (converted.role === 'assistant' && message.reasoning?.length) converted.reasoning = message.reasoning;
  if (converted.role === 'tool' && message.isError) converted.isError = true;
  if (message.providerMetadata && Object.keys(message.providerMetadata).length > 0) {
    converted.providerMetadata = message.providerMetadata;
  }
  return converted;
}
