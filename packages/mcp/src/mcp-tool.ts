import { CairnError, definedFields, type JsonSchema, type Tool } from '@cairn/core';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { jsonSchemaInput } from './json-schema-input.js';
import type { McpServerConnection } from './mcp-server-connection.js';
import {
  isTextOnly,
  type McpToolOutput,
  mcpModelContent,
  mcpOutputText,
  mcpToolOutput,
} from './mcp-tool-result.js';

/**
 * When an MCP tool asks the user first:
 * - `annotations` (default): unless the server marks it `readOnlyHint: true` — MCP's annotations
 *   are hints from the server, so a tool that does not say it only reads is treated as one that may
 *   change things (as the spec's defaults do: `destructiveHint` defaults to true).
 * - `always` / `never`: whatever the annotations say.
 */
export type McpApproval = 'annotations' | 'always' | 'never';

export interface McpToolSettings {
  /** The Cairn tool name (`mcp__<server>__<tool>`, sanitised). */
  name: string;
  category: string;
  approval: McpApproval;
  timeoutMs?: number;
}

function needsApproval(tool: McpTool, approval: McpApproval): boolean {
  if (approval !== 'annotations') return approval === 'always';
  return tool.annotations?.readOnlyHint !== true;
}

// MCP's annotations say it: a read-only tool, or one whose repeated call has no further effect.
function isIdempotent(tool: McpTool): boolean {
  return tool.annotations?.readOnlyHint === true || tool.annotations?.idempotentHint === true;
}

function descriptionOf(tool: McpTool, server: string): string {
  const text = tool.description?.trim() || tool.annotations?.title || tool.title || tool.name;
  return `${text} (MCP server ${server})`;
}

/**
 * An MCP server's tool as a Cairn `Tool`: its JSON Schema is what the model sees and what the host
 * validates against; a text-only result is the call's content, any other (images, files, structured
 * content) is kept as the call's `structured` result (`McpToolOutput`) and the model is sent its
 * parts — it sees the images;
 * `isError` makes the call a failed one (`TOOL_FAILED`), the output kept.
 */
export function mcpTool(
  connection: McpServerConnection,
  tool: McpTool,
  settings: McpToolSettings,
): Tool<Record<string, unknown>, string | McpToolOutput> {
  const schema = tool.inputSchema as JsonSchema;
  return {
    name: settings.name,
    description: descriptionOf(tool, connection.name),
    category: settings.category,
    input: jsonSchemaInput(schema),
    inputJsonSchema: schema,
    needsApproval: needsApproval(tool, settings.approval),
    idempotent: isIdempotent(tool),
    ...definedFields({ timeoutMs: settings.timeoutMs }),
    async execute(input, context) {
      const result = await connection.call(tool.name, input, context.signal);
      const output = mcpToolOutput(result);
      if (result.isError === true) {
        const text = mcpOutputText(output) || `${tool.name} failed`;
        throw new CairnError(
          'TOOL_FAILED',
          text,
          isTextOnly(output) ? {} : { details: { structured: output } },
        );
      }
      return isTextOnly(output) ? mcpOutputText(output) : output;
    },
    toModelOutput: (output) => (typeof output === 'string' ? output : mcpModelContent(output)),
  };
}
