import type { AgentOutput } from '@cairn/core';
import {
  type ClaudeCodeEventContext,
  eventOf,
  isJsonObject,
  type JsonObject,
} from './claude-code-event-context.js';

// A tool result's content is a string or a list of blocks; only text blocks have readable output.
function outputTextOf(content: JsonObject[string] | undefined): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(isJsonObject)
    .map((block) => (block.type === 'text' && typeof block.text === 'string' ? block.text : ''))
    .filter((text) => text !== '')
    .join('\n');
}

/**
 * The `tool_result` event of one result block. `structured` is the line's `tool_use_result` when
 * it is an object (a patch, stdout/stderr); failed tools report a plain string there, which only
 * repeats the output.
 */
export function claudeCodeToolResult(
  block: JsonObject,
  line: JsonObject,
  toolName: string | undefined,
  context: ClaudeCodeEventContext,
): AgentOutput | undefined {
  if (typeof block.tool_use_id !== 'string') return undefined;
  const structured = line.tool_use_result;
  // Built field by field, in the order of `{ type, ...context, toolUseId, toolName?, output, isError, structured? }`.
  const event = eventOf('tool_result', context);
  event.toolUseId = block.tool_use_id;
  if (toolName !== undefined) event.toolName = toolName;
  event.output = outputTextOf(block.content);
  event.isError = block.is_error === true;
  if (isJsonObject(structured)) event.structured = structured;
  return event;
}
