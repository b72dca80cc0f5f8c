import type { JsonValue } from '@cairn/core';
import { singleLine, truncate } from './summary-text.js';

// `mcp__<server>__<tool>`: how Cairn (and Claude Code) name an MCP server's tools.
const MCP_TOOL_NAME = /^mcp__(.+?)__(.+)$/;
const MCP_PREFIX = 'mcp__';
const MAX_ARGS_LENGTH = 80;

function argumentsText(input: JsonValue): string {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return input === null || input === '' ? '' : JSON.stringify(input);
  }
  return Object.entries(input)
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
    .join(', ');
}

/**
 * "server · tool(args)" for a call of an MCP tool (`mcp__server__tool`), the arguments shortened to
 * one line; `undefined` for any other tool. What the call did is the server's business, so this is
 * what a display can say about any of them.
 */
export function mcpCallLabel(toolName: string, input: JsonValue): string | undefined {
  // Most tools are no MCP tool: the regex runs only on names that may be one.
  if (!toolName.startsWith(MCP_PREFIX)) return undefined;
  const match = MCP_TOOL_NAME.exec(toolName);
  if (match === null) return undefined;
  const [, server, tool] = match;
  const args = truncate(singleLine(argumentsText(input)), MAX_ARGS_LENGTH);
  return `${server} · ${tool}(${args})`;
}
