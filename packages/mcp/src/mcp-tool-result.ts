import { type ContentPart, contentText, definedFields, isTextPart, type MessageContent } from '@cairn/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** What an MCP tool call returned, as Cairn keeps it: the call's `structured` result. */
export interface McpToolOutput {
  /** The result's content as Cairn content parts: text, images, audio and embedded files. */
  parts: ContentPart[];
  /** The tool's `structuredContent`, when it sends one. */
  structuredContent?: Record<string, unknown>;
}

type McpContent = CallToolResult['content'][number];

function fileNameOf(uri: string): string | undefined {
  const name = uri.split(/[/\\]/).pop();
  return name === undefined || name === '' ? undefined : name;
}

// MCP content blocks as parts. An embedded text resource is text the model reads (headed by its
// URI); a binary one is a file part; a resource *link* is only named, since Cairn does not fetch it.
function partOf(block: McpContent): ContentPart {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return { type: 'image', mediaType: block.mimeType, source: { type: 'base64', data: block.data } };
    case 'audio':
      return { type: 'file', mediaType: block.mimeType, source: { type: 'base64', data: block.data } };
    case 'resource': {
      const { resource } = block;
      if ('text' in resource) return { type: 'text', text: `Resource ${resource.uri}:\n${resource.text}` };
      return {
        type: 'file',
        mediaType: resource.mimeType ?? 'application/octet-stream',
        source: { type: 'base64', data: resource.blob },
        ...definedFields({ fileName: fileNameOf(resource.uri) }),
      };
    }
    case 'resource_link':
      return {
        type: 'text',
        text: `Resource link: ${block.name} <${block.uri}>${block.description ? ` — ${block.description}` : ''}`,
      };
    default:
      return { ...(block as Record<string, unknown>), type: String((block as { type: unknown }).type) };
  }
}

/** The parts and structured content of an MCP `CallToolResult`. */
export function mcpToolOutput(result: CallToolResult): McpToolOutput {
  return {
    parts: (result.content ?? []).map(partOf),
    ...definedFields({ structuredContent: result.structuredContent }),
  };
}

/**
 * What a failed call reports: its text parts, `[image]`-style placeholders for media, and the
 * structured content as JSON when the server sent no text for it.
 */
export function mcpOutputText(output: McpToolOutput): string {
  const text = contentText(output.parts, { placeholders: true });
  if (text !== '' || output.structuredContent === undefined) return text;
  return JSON.stringify(output.structuredContent);
}

/**
 * What the model is sent of a result: its text when that is all there is, else its parts as they
 * came (it sees the images), with the structured content as JSON text when the server sent no text.
 */
export function mcpModelContent(output: McpToolOutput): MessageContent {
  if (output.parts.every(isTextPart)) return mcpOutputText(output);
  if (output.structuredContent === undefined || output.parts.some(isTextPart)) return output.parts;
  return [{ type: 'text', text: JSON.stringify(output.structuredContent) }, ...output.parts];
}

/** Whether the result is text alone: the model's reading of it is all there is to keep. */
export function isTextOnly(output: McpToolOutput): boolean {
  return output.structuredContent === undefined && output.parts.every((part) => part.type === 'text');
}
