import { type AgentOutput, type ContentPart, contentText, type JsonValue } from '@cairn/core';
import { claudeCodeContentParts, claudeCodeReadPdfPart } from './claude-code-content-parts.js';
import {
  type ClaudeCodeEventContext,
  eventOf,
  isJsonObject,
  type JsonObject,
} from './claude-code-event-context.js';
import { unknownClaudeCodeEvent } from './unknown-claude-code-event.js';

/** The text blocks of a list of content blocks (a tool result's, an API error message's), joined with newlines. */
export function outputTextOf(content: JsonValue[]): string {
  let output = '';
  for (let index = 0; index < content.length; index++) {
    const block = content[index];
    if (!isJsonObject(block) || block.type !== 'text' || typeof block.text !== 'string' || block.text === '')
      continue;
    output = output === '' ? block.text : `${output}\n${block.text}`;
  }
  return output;
}

/**
 * The line's `tool_use_result` without the bytes the parts carry: the Read tool on an image repeats
 * them in `file.base64`, and the log keeps them once (as a part, which the store moves to a blob).
 */
function structuredOf(structured: JsonObject, parts: ContentPart[]): JsonObject {
  const file = structured.file;
  if (!isJsonObject(file) || typeof file.base64 !== 'string') return structured;
  const data = file.base64;
  const repeated = parts.some(
    (part) =>
      (part.type === 'image' || part.type === 'file') &&
      isJsonObject(part.source) &&
      part.source.type === 'base64' &&
      part.source.data === data,
  );
  if (!repeated) return structured;
  const { base64: _bytes, ...rest } = file;
  return { ...structured, file: rest };
}

/**
 * The events of one result block: its `tool_result` and, when some of its content blocks are no
 * part, an `unknown` event keeping them (`raw: { type: 'tool_result', tool_use_id, content }`).
 * Image and document blocks become `content` parts, and so does the PDF of a Read (`claudeCodeReadPdfPart`);
 * the text `output` shows them as placeholders.
 * `structured` is the line's `tool_use_result` when it is an object (a patch, stdout/stderr);
 * failed tools report a plain string there, which only repeats the output.
 */
export function claudeCodeToolResult(
  block: JsonObject,
  line: JsonObject,
  toolName: string | undefined,
  context: ClaudeCodeEventContext,
): AgentOutput[] | undefined {
  if (typeof block.tool_use_id !== 'string') return undefined;
  const content = block.content;
  const blocks = Array.isArray(content) ? content : [];
  const { parts, hasMedia, unmapped } =
    blocks.length === 0 ? { parts: [], hasMedia: false, unmapped: [] } : claudeCodeContentParts(blocks);
  const structured = line.tool_use_result;
  const pdf = claudeCodeReadPdfPart(structured);
  if (pdf !== undefined) {
    // The PDF the model was sent follows the result's text, as it did in the request.
    if (typeof content === 'string' && content !== '') parts.push({ type: 'text', text: content });
    parts.push(pdf);
  }
  // Built field by field, in the order of `{ type, ...context, toolUseId, toolName?, output, content?, isError, structured? }`.
  const event = eventOf('tool_result', context);
  event.toolUseId = block.tool_use_id;
  if (toolName !== undefined) event.toolName = toolName;
  if (typeof content === 'string' && pdf === undefined) event.output = content;
  else if (hasMedia || pdf !== undefined) {
    event.output = contentText(parts, { placeholders: true });
    event.content = parts;
  } else event.output = outputTextOf(blocks);
  event.isError = block.is_error === true;
  if (isJsonObject(structured)) event.structured = structuredOf(structured, parts);
  if (unmapped.length === 0) return [event];
  const kept: JsonObject = { type: 'tool_result', tool_use_id: block.tool_use_id, content: unmapped };
  return [event, unknownClaudeCodeEvent(kept, context)];
}
