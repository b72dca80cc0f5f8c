import type { ContentPart } from '../content/content-part.js';
import { toOpenAIUserContent } from '../content/to-openai-content.js';
import { CairnError } from '../errors/cairn-error.js';
import type { ConversationMessage } from './conversation-message.js';
import type { ModelMessage } from './model-message.js';
import type { OpenAIChatMessage } from './openai-chat-message.js';
import { toProtocolMessage } from './to-protocol-message.js';

function textOnly(parts: readonly ContentPart[], messageId: string, role: string): string {
  return parts
    .map((part, index) => {
      if (part.type === 'text' && typeof part.text === 'string') return part.text;
      throw new CairnError(
        'UNSUPPORTED_CONTENT',
        `Message ${messageId} part ${index}: an OpenAI Chat ${role} message takes text only, not ${part.type}`,
        { details: { messageId, index, provider: 'openai' } },
      );
    })
    .join('');
}

/** A model message in the OpenAI Chat Completions wire format (content parts mapped). */
export function toOpenAIChatMessage(message: ModelMessage, messageId: string): OpenAIChatMessage {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return {
        role: 'user',
        content:
          typeof message.content === 'string'
            ? message.content
            : toOpenAIUserContent(message.content, messageId),
      };
    case 'assistant':
      return message.tool_calls === undefined
        ? { role: 'assistant', content: message.content }
        : { role: 'assistant', content: message.content, tool_calls: message.tool_calls };
    case 'tool':
      return {
        role: 'tool',
        content:
          typeof message.content === 'string'
            ? message.content
            : textOnly(message.content, messageId, 'tool'),
        tool_call_id: message.tool_call_id,
      };
  }
}

/**
 * The message in the OpenAI Chat Completions API format, ready to send as is: UI extras, context
 * metadata, storage and provider fields are stripped. An assistant message keeps `content: null`
 * only when it carries tool calls; otherwise missing text becomes `''`. A user message's parts
 * become `image_url` and `file` parts (their bytes inline or by URL; parts whose bytes are still in
 * the store are `INVALID_MESSAGE` until `resolveContentParts` reads them); a tool message with an
 * image is `UNSUPPORTED_CONTENT` (OpenAI Chat tool results are text). Display-only messages
 * (`thinking`, `tool_execution`) and messages that break the role rules are refused with
 * `INVALID_MESSAGE` rather than sent wrong. For adapters, `toModelMessage` also keeps the data
 * they need to replay history.
 */
export function toOpenAIMessage(message: ConversationMessage): OpenAIChatMessage {
  return toOpenAIChatMessage(toProtocolMessage(message), message.id);
}
