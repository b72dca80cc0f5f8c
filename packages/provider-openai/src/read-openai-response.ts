import { CairnError } from '@cairn/core';
import type { StreamSink } from '@cairn/provider-utils';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { convertOpenAIUsage } from './convert-openai-usage.js';
import { mapOpenAIFinishReason } from './map-openai-finish-reason.js';
import { type OpenAIMessageFields, openAIReasoning, openAIText } from './openai-message-text.js';
import { createOpenAIToolCallAccumulator } from './openai-tool-call-ids.js';

/**
 * Reports a non-streaming Chat Completions response to `sink` (provider-utils' result assembler),
 * piece by piece as a stream would, so `generate` and `stream` build the same message.
 */
export function readOpenAIResponse(response: ChatCompletion, sink: StreamSink): void {
  sink.start({ responseId: response.id, modelId: response.model });
  const choice = response.choices?.[0];
  if (choice === undefined) {
    throw new CairnError('LLM_BAD_RESPONSE', 'openai: the response has no choices', {
      details: { provider: 'openai', raw: JSON.stringify(response) },
    });
  }
  const message: ChatCompletion.Choice['message'] & OpenAIMessageFields = choice.message;
  const reasoning = openAIReasoning(message);
  if (reasoning !== '') sink.reasoningDelta('reasoning', reasoning);
  const text = openAIText(message);
  if (text !== '') sink.textDelta('text', text);
  // Through the stream's accumulator, so a call without an id gets the same id either way.
  const toolCalls = createOpenAIToolCallAccumulator(() => response.id);
  message.tool_calls?.forEach((call, index) => {
    // Custom (free-text) tools are never offered by this adapter, so only function calls come back.
    if (call.type === 'function') toolCalls.push({ index, id: call.id, function: call.function });
  });
  for (const call of toolCalls.toolCalls()) {
    sink.toolCallStart(call.id, call.toolName);
    sink.toolCallEnd(call.id, { arguments: call.arguments });
  }
  if (response.usage) sink.usage(convertOpenAIUsage(response.usage));
  const { reason, rawReason } = mapOpenAIFinishReason(choice.finish_reason);
  sink.finish(reason, rawReason);
}
