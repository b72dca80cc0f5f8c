import type { StreamSink } from '@cairn/provider-utils';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { convertOpenAIUsage } from './convert-openai-usage.js';
import { mapOpenAIFinishReason } from './map-openai-finish-reason.js';
import { type OpenAIMessageFields, openAIReasoning, openAIText } from './openai-message-text.js';
import { createOpenAIToolCallAccumulator } from './openai-tool-call-ids.js';

/**
 * Reports the chunks of a streamed Chat Completions response to `sink`: text and reasoning
 * deltas, tool calls from their indexed argument deltas, the usage chunk (`include_usage`) and
 * the finish reason. Only the first choice is read (`n` > 1 is not supported).
 */
export async function readOpenAIChunks(
  chunks: AsyncIterable<ChatCompletionChunk>,
  sink: StreamSink,
): Promise<void> {
  let responseId: string | undefined;
  const toolCalls = createOpenAIToolCallAccumulator(() => responseId);
  let reasoningOpen = false;
  let finished = false;
  for await (const chunk of chunks) {
    if (responseId === undefined && chunk.id) {
      responseId = chunk.id;
      sink.start({ responseId, modelId: chunk.model });
    }
    if (chunk.usage) sink.usage(convertOpenAIUsage(chunk.usage));
    const choice = chunk.choices?.find((candidate) => (candidate.index ?? 0) === 0);
    if (choice === undefined || finished) continue;
    const delta: ChatCompletionChunk.Choice['delta'] & OpenAIMessageFields = choice.delta ?? {};
    const reasoning = openAIReasoning(delta);
    if (reasoning !== '') {
      sink.reasoningDelta('reasoning', reasoning);
      reasoningOpen = true;
    }
    const text = openAIText(delta);
    if (text !== '') {
      // Reasoning comes before the answer: close it as soon as the answer begins.
      if (reasoningOpen) sink.reasoningEnd('reasoning');
      reasoningOpen = false;
      sink.textDelta('text', text);
    }
    for (const toolCallDelta of delta.tool_calls ?? []) {
      for (const update of toolCalls.push(toolCallDelta)) {
        if (update.type === 'start') {
          sink.textEnd('text');
          sink.toolCallStart(update.id, update.toolName);
        } else {
          sink.toolInputDelta(update.id, update.delta);
        }
      }
    }
    if (choice.finish_reason) {
      finished = true;
      // The calls are whole once the choice finishes; the usage chunk may still follow.
      for (const call of toolCalls.toolCalls()) sink.toolCallEnd(call.id);
      const { reason, rawReason } = mapOpenAIFinishReason(choice.finish_reason);
      sink.finish(reason, rawReason);
    }
  }
}
