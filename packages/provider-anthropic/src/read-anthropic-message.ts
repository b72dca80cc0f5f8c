import type { Message } from '@anthropic-ai/sdk/resources/messages';
import type { JsonValue } from '@cairn/core';
import { convertAnthropicUsage, type StreamSink } from '@cairn/provider-utils';
import { redactedThinkingEndInfo, thinkingEndInfo } from './anthropic-reasoning-metadata.js';
import { toolArgumentsFromInput } from './anthropic-tool-input.js';
import { mapAnthropicFinishReason, outputAnswered } from './map-anthropic-finish-reason.js';

/**
 * Reports a whole (non-streamed) Messages API response to `sink`, block by block as the stream
 * reader would, so `generate` and `stream` assemble the same result. Server-tool blocks
 * (`server_tool_use`, `web_search_tool_result`, …) have no place in a Cairn message: they are
 * passed on as unknown events. A `tool_use` of `outputTool` (structured output as a forced tool)
 * is the answer: its input becomes text, and the turn finishes with `stop` when no other tool was
 * called.
 */
export function readAnthropicMessage(message: Message, sink: StreamSink, outputTool?: string): void {
  sink.start({ responseId: message.id, modelId: message.model });
  let otherToolCalls = false;
  message.content.forEach((block, index) => {
    const key = String(index);
    switch (block.type) {
      case 'text':
        sink.textDelta(key, block.text);
        sink.textEnd(key);
        break;
      case 'thinking':
        sink.reasoningDelta(key, block.thinking);
        sink.reasoningEnd(key, thinkingEndInfo(block.signature));
        break;
      case 'redacted_thinking':
        sink.reasoningEnd(key, redactedThinkingEndInfo(block.data));
        break;
      case 'tool_use':
        if (block.name === outputTool) {
          sink.textDelta(key, JSON.stringify(block.input));
          sink.textEnd(key);
          break;
        }
        otherToolCalls = true;
        sink.toolCallStart(block.id, block.name);
        sink.toolCallEnd(block.id, { arguments: toolArgumentsFromInput(block.input) });
        break;
      default:
        sink.unknown(block as unknown as JsonValue);
    }
  });
  sink.usage(convertAnthropicUsage(message.usage));
  const { finishReason, rawFinishReason } = mapAnthropicFinishReason(message.stop_reason);
  sink.finish(outputAnswered(finishReason, outputTool, otherToolCalls), rawFinishReason);
}
