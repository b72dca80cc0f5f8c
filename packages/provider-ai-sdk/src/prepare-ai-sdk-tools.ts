import type { ModelToolChoice, ModelToolDefinition } from '@cairn/core';
import type { AiSdkFunctionTool, AiSdkToolChoice } from './ai-sdk-types.js';

export interface AiSdkTools {
  tools?: AiSdkFunctionTool[];
  toolChoice?: AiSdkToolChoice;
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
      inputSchema,
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
