import { CairnError, type ModelMessage, type OpenAIToolCall } from '@cairn/core';
import { textOnlyContent } from '@cairn/provider-utils';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';

function copyToolCall(call: OpenAIToolCall): OpenAIToolCall {
  return {
    id: call.id,
    type: 'function',
    function: { name: call.function.name, arguments: call.function.arguments },
  };
}

/**
 * The messages as the Chat Completions API takes them: exactly core's `toOpenAIMessage` shape.
 * Reasoning, `providerMetadata` and `isError` are dropped — Chat Completions has no field for them,
 * and compatible servers (DeepSeek, for one) reject reasoning sent back. An assistant message with
 * tool calls and no text gets `content: null`, never `''`.
 */
export function convertToOpenAIMessages(messages: readonly ModelMessage[]): ChatCompletionMessageParam[] {
  return messages.map((message, index): ChatCompletionMessageParam => {
    switch (message.role) {
      case 'system':
        return { role: 'system', content: message.content };
      case 'user':
        return { role: 'user', content: textOnlyContent(message.content, 'openai', 'user messages') };
      case 'assistant': {
        const toolCalls = message.tool_calls?.map(copyToolCall) ?? [];
        return toolCalls.length > 0
          ? { role: 'assistant', content: message.content || null, tool_calls: toolCalls }
          : { role: 'assistant', content: message.content ?? '' };
      }
      case 'tool':
        if (!message.tool_call_id) throw invalidMessage(index, 'tool_call_id', 'has no tool_call_id');
        return {
          role: 'tool',
          content: textOnlyContent(message.content, 'openai', 'tool results'),
          tool_call_id: message.tool_call_id,
        };
      default: {
        const role: unknown = (message as { role: unknown }).role;
        throw invalidMessage(index, 'role', `has an unknown role ${JSON.stringify(role)}`);
      }
    }
  });
}

function invalidMessage(index: number, field: string, problem: string): CairnError {
  return new CairnError('INVALID_MESSAGE', `Message ${index} ${problem}`, {
    details: { path: `messages.${index}.${field}` },
  });
}
