import type { ContentPart } from '../content/content-part.js';
import { contentText } from '../content/content-text.js';
import { CairnError } from '../errors/cairn-error.js';
import { type ConversationMessage, isDisplayOnlyMessage } from './conversation-message.js';
import type { ModelMessage } from './model-message.js';
import type { OpenAIToolCall } from './openai-chat-message.js';

function copyToolCall(call: OpenAIToolCall): OpenAIToolCall {
  return {
    id: call.id,
    type: 'function',
    function: { name: call.function.name, arguments: call.function.arguments },
  };
}

function invalid(message: ConversationMessage, path: string, problem: string): CairnError {
  return new CairnError('INVALID_MESSAGE', `Message ${message.id} ${problem}`, {
    details: { messageId: message.id, path },
  });
}

// Parts are copied one level deep: an adapter may not change the log's message through them.
const copyParts = (content: string | ContentPart[]): string | ContentPart[] =>
  typeof content === 'string' ? content : content.map((part) => ({ ...part }));

/**
 * The protocol fields of a log message (role, content, tool calls, call id), as `ModelMessage` has
 * them: system and assistant text as a string, user and tool content as text or parts.
 */
export function toProtocolMessage(message: ConversationMessage): ModelMessage {
  if (isDisplayOnlyMessage(message)) {
    throw invalid(message, 'partType', `is display-only (${message.partType}) and cannot be sent to a model`);
  }
  switch (message.role) {
    case 'system':
      return { role: 'system', content: contentText(message.content) };
    case 'user':
      return { role: 'user', content: copyParts(message.content ?? '') };
    case 'assistant': {
      const toolCalls = message.tool_calls?.map(copyToolCall) ?? [];
      const text =
        message.content === null || message.content === undefined ? null : contentText(message.content);
      return toolCalls.length > 0
        ? { role: 'assistant', content: text, tool_calls: toolCalls }
        : { role: 'assistant', content: text ?? '' };
    }
    case 'tool':
      if (!message.tool_call_id) throw invalid(message, 'tool_call_id', 'has no tool_call_id');
      return { role: 'tool', content: copyParts(message.content ?? ''), tool_call_id: message.tool_call_id };
    default: {
      const role: unknown = (message as { role: unknown }).role;
      throw invalid(message, 'role', `has an unknown role ${JSON.stringify(role)}`);
    }
  }
}
