import { CairnError } from '../errors/cairn-error.js';
import { type ConversationMessage, isDisplayOnlyMessage } from './conversation-message.js';
import type { OpenAIChatMessage, OpenAIToolCall } from './openai-chat-message.js';

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

/**
 * The message in the OpenAI Chat Completions API format, ready to send as is: UI extras, context
 * metadata, storage and provider fields are stripped. An assistant message keeps `content: null`
 * only when it carries tool calls; otherwise missing text becomes `''`. Display-only messages
 * (`thinking`, `tool_execution`) and messages that break the role rules are refused with
 * `INVALID_MESSAGE` rather than sent wrong. For adapters, `toModelMessage` also keeps the data
 * they need to replay history.
 */
export function toOpenAIMessage(message: ConversationMessage): OpenAIChatMessage {
  if (isDisplayOnlyMessage(message)) {
    throw invalid(message, 'partType', `is display-only (${message.partType}) and cannot be sent to a model`);
  }
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content ?? '' };
    case 'assistant': {
      const toolCalls = message.tool_calls?.map(copyToolCall) ?? [];
      return toolCalls.length > 0
        ? { role: 'assistant', content: message.content ?? null, tool_calls: toolCalls }
        : { role: 'assistant', content: message.content ?? '' };
    }
    case 'tool':
      if (!message.tool_call_id) throw invalid(message, 'tool_call_id', 'has no tool_call_id');
      return { role: 'tool', content: message.content ?? '', tool_call_id: message.tool_call_id };
    default: {
      const role: unknown = (message as { role: unknown }).role;
      throw invalid(message, 'role', `has an unknown role ${JSON.stringify(role)}`);
    }
  }
}
