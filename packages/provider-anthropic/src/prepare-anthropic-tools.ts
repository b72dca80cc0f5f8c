import type { Tool, ToolChoice } from '@anthropic-ai/sdk/resources/messages';
import { CairnError, definedFields, type ModelToolChoice, type ModelToolDefinition } from '@cairn/core';

/**
 * The request's tools and tool choice as Anthropic's `tools` and `tool_choice`. Both are left out
 * when there are no tools: the API refuses a `tool_choice` without them.
 */
export function prepareAnthropicTools(
  tools: readonly ModelToolDefinition[] | undefined,
  toolChoice: ModelToolChoice | undefined,
): { tools?: Tool[]; tool_choice?: ToolChoice } {
  if (tools === undefined || tools.length === 0) return {};
  const names = new Set<string>();
  const anthropicTools = tools.map((tool): Tool => {
    if (names.has(tool.name)) throw new CairnError('INVALID_ARGUMENT', `tool ${tool.name} is defined twice`);
    names.add(tool.name);
    return {
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      input_schema: toInputSchema(tool),
    };
  });
  const choice = toToolChoice(toolChoice, names);
  return { tools: anthropicTools, ...definedFields({ tool_choice: choice }) };
}

// Anthropic takes any JSON Schema whose root is an object; a schema without `type` gets it.
function toInputSchema(tool: ModelToolDefinition): Tool.InputSchema {
  const { type = 'object' } = tool.inputSchema;
  if (type !== 'object') {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `the input schema of tool ${tool.name} must describe an object, got type ${JSON.stringify(type)}`,
    );
  }
  return { ...tool.inputSchema, type };
}

function toToolChoice(
  choice: ModelToolChoice | undefined,
  names: ReadonlySet<string>,
): ToolChoice | undefined {
  if (choice === undefined) return undefined;
  if (choice === 'auto' || choice === 'none') return { type: choice };
  if (choice === 'required') return { type: 'any' };
  if (!names.has(choice.toolName)) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `toolChoice names ${choice.toolName}, which is not among the tools`,
    );
  }
  return { type: 'tool', name: choice.toolName };
}
