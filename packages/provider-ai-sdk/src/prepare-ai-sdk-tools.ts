import type { LanguageModelV4FunctionTool, LanguageModelV4ToolChoice } from '@ai-sdk/provider';
import type { ModelToolChoice, ModelToolDefinition } from '@cairn/core';

export interface AiSdkTools {
  tools?: LanguageModelV4FunctionTool[];
  toolChoice?: LanguageModelV4ToolChoice;
}

/**
 * Cairn's tools → the AI SDK's function tools (the JSON Schema as `inputSchema`; each provider
 * cleans it to what its API takes) and `toolChoice` (`{ toolName }` → `{ type: 'tool' }`). V2, V3
 * and V4 share these shapes. No tools: neither field, as the AI SDK's `streamText` sends them.
 */
export function prepareAiSdkTools(
  tools: readonly ModelToolDefinition[] | undefined,
  toolChoice: ModelToolChoice | undefined,
): AiSdkTools {
  if (tools === undefined || tools.length === 0) return {};
  return {
    tools: tools.map(({ name, description, inputSchema }) => ({
      type: 'function',
      name,
      description,
      inputSchema: inputSchema as LanguageModelV4FunctionTool['inputSchema'],
    })),
    ...(toolChoice === undefined
      ? {}
      : {
          toolChoice:
            typeof toolChoice === 'string'
              ? { type: toolChoice }
              : { type: 'tool', toolName: toolChoice.toolName },
        }),
  };
}
