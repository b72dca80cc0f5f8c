import { APIError } from '@anthropic-ai/sdk';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { CairnError, type JsonValue } from '@cairn/core';
import {
  type AnthropicUsage,
  convertAnthropicUsage,
  mergeAnthropicUsage,
  type StreamSink,
} from '@cairn/provider-utils';
import { redactedThinkingEndInfo, thinkingEndInfo } from './anthropic-reasoning-metadata.js';
import { toolArgumentsFromInput, toolArgumentsFromJson } from './anthropic-tool-input.js';
import { mapAnthropicFinishReason, outputAnswered } from './map-anthropic-finish-reason.js';

/** One server-sent event as the SDK's raw event stream gives it. */
export interface AnthropicSseEvent {
  event: string | null;
  data: string;
}

type OpenBlock =
  | { type: 'text' }
  | { type: 'thinking'; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; json: string; input: unknown }
  // The structured-output tool's call: its input is the answer's text.
  | { type: 'output'; json: string; input: unknown }
  // Server-tool blocks and types newer than this adapter: not part of a Cairn message.
  | { type: 'other' };

/**
 * Reads a Messages API event stream (`message_start`, `content_block_start|delta|stop`,
 * `message_delta`, `message_stop`) into `sink`. An `error` event is thrown as the SDK would
 * throw it (classified by `error.type`: `overloaded_error` → unavailable, …); data that is not
 * JSON throws `LLM_BAD_RESPONSE` with the raw text. Returns at `message_stop` or the end. A
 * `tool_use` of `outputTool` (structured output as a forced tool) streams its input as text.
 */
export async function readAnthropicStream(
  events: AsyncIterable<AnthropicSseEvent>,
  sink: StreamSink,
  outputTool?: string,
): Promise<void> {
  const blocks = new Map<number, OpenBlock>();
  let usage: AnthropicUsage = {};
  let otherToolCalls = false;
  for await (const sse of events) {
    if (sse.event === 'ping' || sse.data === '') continue;
    const event = parseEvent(sse.data);
    if (sse.event === 'error' || event.type === 'error') throw streamError(event);
    switch (event.type) {
      case 'message_start':
        sink.start({ responseId: event.message.id, modelId: event.message.model });
        usage = event.message.usage;
        sink.usage(convertAnthropicUsage(usage));
        break;
      case 'content_block_start': {
        const block = startBlock(event.index, event.content_block, sink, outputTool);
        if (block.type === 'tool_use') otherToolCalls = true;
        blocks.set(event.index, block);
        break;
      }
      case 'content_block_delta':
        applyDelta(event.index, blocks.get(event.index), event.delta, sink);
        break;
      case 'content_block_stop':
        endBlock(event.index, blocks.get(event.index), sink);
        blocks.delete(event.index);
        break;
      case 'message_delta': {
        usage = mergeAnthropicUsage(usage, event.usage ?? {});
        sink.usage(convertAnthropicUsage(usage));
        if (event.delta.stop_reason) {
          const { finishReason, rawFinishReason } = mapAnthropicFinishReason(event.delta.stop_reason);
          sink.finish(outputAnswered(finishReason, outputTool, otherToolCalls), rawFinishReason);
        }
        break;
      }
      case 'message_stop':
        return;
      default:
        // An event type newer than this adapter: kept, not fatal.
        sink.unknown(event as unknown as JsonValue);
    }
  }
}

function parseEvent(data: string): RawMessageStreamEvent | { type: 'error'; error?: unknown } {
  try {
    const event: unknown = JSON.parse(data);
    if (
      typeof event === 'object' &&
      event !== null &&
      typeof (event as { type?: unknown }).type === 'string'
    ) {
      return event as RawMessageStreamEvent;
    }
  } catch {
    // Reported below with the text.
  }
  throw new CairnError(
    'LLM_BAD_RESPONSE',
    'anthropic: the stream sent an event that is not a JSON event object',
    {
      details: { provider: 'anthropic', raw: data },
    },
  );
}

// The SDK's own stream reader throws an `error` event this way, so it is classified like one.
/**
 * The events, with an `event: error` thrown where it stands: an error that comes first (an
 * `overloaded_error` before any output) then fails the attempt itself, which may be retried.
 */
export async function* throwErrorEvents(
  events: AsyncIterable<AnthropicSseEvent>,
): AsyncGenerator<AnthropicSseEvent, void, undefined> {
  for await (const event of events) {
    if (event.event === 'error') throw streamError(parseEvent(event.data));
    yield event;
  }
}

function streamError(body: unknown): APIError {
  return new APIError(undefined, body as object, undefined, undefined);
}

function startBlock(
  index: number,
  block: Extract<RawMessageStreamEvent, { type: 'content_block_start' }>['content_block'],
  sink: StreamSink,
  outputTool: string | undefined,
): OpenBlock {
  const key = String(index);
  switch (block.type) {
    case 'text':
      sink.textDelta(key, block.text);
      return { type: 'text' };
    case 'thinking':
      sink.reasoningDelta(key, block.thinking);
      return { type: 'thinking', signature: block.signature ?? '' };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: block.data };
    case 'tool_use':
      if (block.name === outputTool) return { type: 'output', json: '', input: block.input };
      sink.toolCallStart(block.id, block.name);
      return { type: 'tool_use', id: block.id, json: '', input: block.input };
    default:
      // Server-tool blocks (`server_tool_use`, `web_search_tool_result`, …) have no place in a
      // Cairn message: passed on as unknown events, kept.
      sink.unknown(block as unknown as JsonValue);
      return { type: 'other' };
  }
}

function applyDelta(
  index: number,
  block: OpenBlock | undefined,
  delta: Extract<RawMessageStreamEvent, { type: 'content_block_delta' }>['delta'],
  sink: StreamSink,
): void {
  const key = String(index);
  switch (delta.type) {
    case 'text_delta':
      sink.textDelta(key, delta.text);
      break;
    case 'thinking_delta':
      sink.reasoningDelta(key, delta.thinking);
      break;
    case 'signature_delta':
      // Sent whole, once, just before the block ends.
      if (block?.type === 'thinking') block.signature = delta.signature;
      break;
    case 'input_json_delta':
      if (block?.type === 'output') {
        block.json += delta.partial_json;
        if (delta.partial_json !== '') sink.textDelta(key, delta.partial_json);
        break;
      }
      if (block?.type !== 'tool_use') throw outOfPlace('input_json_delta', index);
      block.json += delta.partial_json;
      sink.toolInputDelta(block.id, delta.partial_json);
      break;
    default:
      // `citations_delta` and deltas newer than this adapter.
      sink.unknown(delta as unknown as JsonValue);
  }
}

function endBlock(index: number, block: OpenBlock | undefined, sink: StreamSink): void {
  const key = String(index);
  switch (block?.type) {
    case 'text':
      sink.textEnd(key);
      break;
    case 'thinking':
      sink.reasoningEnd(key, thinkingEndInfo(block.signature));
      break;
    case 'redacted_thinking':
      sink.reasoningEnd(key, redactedThinkingEndInfo(block.data));
      break;
    case 'output':
      // An input given whole in content_block_start (no deltas) is the whole answer.
      if (block.json === '') sink.textDelta(key, JSON.stringify(block.input ?? {}));
      sink.textEnd(key);
      break;
    case 'tool_use':
      sink.toolCallEnd(block.id, {
        // An input given whole in content_block_start (no deltas) counts as well.
        arguments:
          block.json === '' ? toolArgumentsFromInput(block.input) : toolArgumentsFromJson(block.json),
      });
      break;
  }
}

function outOfPlace(what: string, index: number): CairnError {
  return new CairnError(
    'LLM_BAD_RESPONSE',
    `anthropic: ${what} for content block ${index}, which is not a tool_use`,
    {
      details: { provider: 'anthropic' },
    },
  );
}
