import type { JsonValue } from '@cairn/core';
import { displayPath } from './tool-processors/display-path.js';
import { mcpCallLabel } from './tool-processors/mcp-call-label.js';
import { singleLine, truncate } from './tool-processors/summary-text.js';

const MAX_SUMMARY_LENGTH = 200;
const MAX_TOOL_NAME_LENGTH = 60;

/**
 * The one-line summary of a call that is still running: "Running Bash: sleep 30". What the call
 * works on is the input's first string field (the command, the file path, the pattern, the
 * sub-agent's description, for the tools of every agent CLI), a path shown relative to `cwd`; an
 * MCP tool's is "Running server · tool(args)".
 * Tool processors describe finished calls; a running call has no output to describe yet.
 */
export function runningToolSummary(toolName: string, input: JsonValue, cwd: string | undefined): string {
  const mcp = mcpCallLabel(toolName, input);
  if (mcp !== undefined) return truncate(`Running ${mcp}`, MAX_SUMMARY_LENGTH);
  const name = truncate(singleLine(toolName), MAX_TOOL_NAME_LENGTH) || 'Tool';
  const subject = typeof input === 'string' ? input : firstStringField(input);
  const shown = subject === undefined ? '' : singleLine(displayPath(subject, cwd));
  return truncate(shown === '' ? `Running ${name}` : `Running ${name}: ${shown}`, MAX_SUMMARY_LENGTH);
}

function firstStringField(input: JsonValue): string | undefined {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return undefined;
  for (const key in input) {
    const value = input[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}
