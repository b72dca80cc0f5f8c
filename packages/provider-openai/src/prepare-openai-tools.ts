import { CairnError, type ModelToolChoice, type ModelToolDefinition } from '@cairn/core';
import type {
  ChatCompletionFunctionTool,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';

/** The request's `tools` and `tool_choice`, each left out when there is nothing to send. */
export interface OpenAITools {
  tools?: ChatCompletionFunctionTool[];
  tool_choice?: ChatCompletionToolChoiceOption;
}

/**
 * The tools as Chat Completions function tools. Without tools nothing is sent, not even
 * `tool_choice` (OpenAI rejects a `tool_choice` without `tools`). A named choice must name one of
 * the tools: otherwise `INVALID_ARGUMENT` here rather than a 400 from the server.
 */
export function prepareOpenAITools(
  tools: readonly ModelToolDefinition[] | undefined,
  toolChoice: ModelToolChoice | undefined,
): OpenAITools {
  if (!tools || tools.length === 0) return {};
  const prepared: OpenAITools = {
    tools: tools.map((tool) => ({
      type: 'function',
      function: {
        name: tool.name,
        ...(tool.description ? { description: tool.description } : {}),
        parameters: tool.inputSchema,
      },
    })),
  };
  if (toolChoice === undefined) return prepared;
  if (typeof toolChoice === 'string') return { ...prepared, tool_choice: toolChoice };
  if (!tools.some((tool) => tool.name === toolChoice.toolName)) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `toolChoice names ${JSON.stringify(toolChoice.toolName)}, which is not a tool of the request`,
      {
        details: { path: 'toolChoice.toolName' },
      },
    );
  }
  return { ...prepared, tool_choice: { type: 'function', function: { name: toolChoice.toolName } } };
}
