import type { AgentOutput } from '@cairn/core';
import { blockId } from './claude-code-block-ids.js';
import {
  type ClaudeCodeEventContext,
  eventOf,
  isJsonObject,
  type JsonObject,
  numberOf,
  stringOf,
  withMessageId,
} from './claude-code-event-context.js';
import { unknownClaudeCodeEvent } from './unknown-claude-code-event.js';

interface OpenToolBlock {
  id: string;
  name: string | undefined;
}

// Events that only frame the deltas; the whole blocks and the usage come from other lines.
const FRAMING_EVENTS = new Set(['content_block_stop', 'message_delta', 'message_stop', 'ping']);

/**
 * Turns the raw API events of `stream_event` lines (`--include-partial-messages`) into deltas
 * only. The whole `text`/`reasoning`/`tool_use` come from the `assistant` line of the same block,
 * so nothing is reported twice.
 */
export class ClaudeCodeStreamEvents {
  private messageId: string | undefined;
  private readonly toolBlocks = new Map<number, OpenToolBlock>();

  convert(line: JsonObject, context: ClaudeCodeEventContext): AgentOutput[] {
    const event = line.event;
    if (!isJsonObject(event)) return [unknownClaudeCodeEvent(line, context)];
    const type = stringOf(event.type);
    if (type === 'message_start') {
      const message = isJsonObject(event.message) ? event.message : {};
      this.messageId = stringOf(message.id);
      this.toolBlocks.clear();
      return [];
    }
    if (type === 'content_block_start') return this.startBlock(event, line, context);
    if (type === 'content_block_delta') return this.delta(event, line, context);
    if (type !== undefined && FRAMING_EVENTS.has(type)) return [];
    return [unknownClaudeCodeEvent(line, context)];
  }

  private startBlock(event: JsonObject, line: JsonObject, context: ClaudeCodeEventContext): AgentOutput[] {
    const index = numberOf(event.index);
    const block = event.content_block;
    if (index === undefined || !isJsonObject(block)) return [unknownClaudeCodeEvent(line, context)];
    if (block.type === 'tool_use' && typeof block.id === 'string') {
      this.toolBlocks.set(index, { id: block.id, name: stringOf(block.name) });
    }
    return [];
  }

  private delta(event: JsonObject, line: JsonObject, context: ClaudeCodeEventContext): AgentOutput[] {
    const index = numberOf(event.index);
    const delta = event.delta;
    if (index === undefined || !isJsonObject(delta)) return [unknownClaudeCodeEvent(line, context)];
    const base = withMessageId(context, this.messageId);
    const id = blockId(this.messageId ?? 'stream', index);
    switch (delta.type) {
      // Each delta built field by field, in the order of `{ type, ...base, id, toolName?, delta }`:
      // a spread before more fields is slow in V8, and a stream has one of these per token.
      case 'text_delta': {
        if (typeof delta.text !== 'string' || delta.text === '') return [];
        const event = eventOf('text_delta', base);
        event.id = id;
        event.delta = delta.text;
        return [event];
      }
      case 'thinking_delta': {
        if (typeof delta.thinking !== 'string' || delta.thinking === '') return [];
        const event = eventOf('reasoning_delta', base);
        event.id = id;
        event.delta = delta.thinking;
        return [event];
      }
      case 'input_json_delta': {
        const tool = this.toolBlocks.get(index);
        if (typeof delta.partial_json !== 'string' || delta.partial_json === '') return [];
        const event = eventOf('tool_input_delta', base);
        event.id = tool?.id ?? id;
        if (tool?.name !== undefined) event.toolName = tool.name;
        event.delta = delta.partial_json;
        return [event];
      }
      // The signature arrives again, whole, on the assistant line's thinking block.
      case 'signature_delta':
        return [];
      default:
        return [unknownClaudeCodeEvent(line, context)];
    }
  }
}
