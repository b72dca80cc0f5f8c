import { CairnError } from '../errors/cairn-error.js';
import type { ConversationMessage } from './conversation-message.js';
import type { OpenAIChatMessage, OpenAIToolCall } from './openai-chat-message.js';
import type { ProviderMetadata } from './provider-metadata.js';

function copyToolCall(call: OpenAIToolCall): OpenAIToolCall {
  return {
    id: call.id,
    type: 'function',
    function: { name: call.function.name, arguments: call.function.arguments },
  };
}

function providerMetadataOf(message: ConversationMessage): { providerMetadata?: ProviderMetadata } {
  const metadata = message.providerMetadata;
  return metadata && Object.keys(metadata).length > 0 ? { providerMetadata: metadata } : {};
}

/**
 * The message as a model request sees it: protocol fields only. UI extras, context metadata and
 * storage fields are stripped; `providerMetadata` (and `isError` on tool results) are kept because
 * adapters need them to replay history. An assistant message keeps `content: null` only when it
 * carries tool calls; otherwise missing text becomes `''`.
 */
export function toOpenAIMessage(message: ConversationMessage): OpenAIChatMessage {
  const extras = providerMetadataOf(message);
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content ?? '', ...extras };
    case 'assistant': {
      const toolCalls = message.tool_calls?.map(copyToolCall) ?? [];
      return toolCalls.length > 0
        ? { role: 'assistant', content: message.content ?? null, tool_calls: toolCalls, ...extras }
        : { role: 'assistant', content: message.content ?? '', ...extras };
    }
    case 'tool': {
      if (!message.tool_call_id) {
        throw new CairnError('INVALID_MESSAGE', `Tool message ${message.id} has no tool_call_id`, {
          details: { messageId: message.id, path: 'tool_call_id' },
        });
      }
      return {
        role: 'tool',
        content: message.content ?? '',
        tool_call_id: message.tool_call_id,
        ...(message.isError ? { isError: true } : {}),
        ...extras,
      };
    }
    default: {
      const role: unknown = (message as { role: unknown }).role;
      throw new CairnError('INVALID_MESSAGE', `Message has an unknown role ${JSON.stringify(role)}`, {
        details: { path: 'role' },
      });
    }
  }
}
