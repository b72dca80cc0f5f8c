import { CairnError, type ModelToolChoice, type ModelToolDefinition } from '@cairn/core';
import { cleanJsonSchema } from '@cairn/provider-utils';
import type { GeminiTool, GeminiToolConfig } from './gemini-api-types.js';

export interface PreparedGeminiTools {
  tools?: GeminiTool[];
  toolConfig?: GeminiToolConfig;
}

/**
 * Declares the tools as Gemini `functionDeclarations`, their schemas cleaned to the OpenAPI 3.0
 * subset Gemini accepts, and maps the tool choice to `functionCallingConfig`: `auto` → `AUTO`,
 * `none` → `NONE`, `required` → `ANY`, one named tool → `ANY` limited to that name.
 */
export function prepareGeminiTools(
  tools: readonly ModelToolDefinition[] | undefined,
  toolChoice: ModelToolChoice | undefined,
): PreparedGeminiTools {
  if (tools === undefined || tools.length === 0) return {};
  const functionDeclarations = tools.map(({ name, description, inputSchema }) => {
    const parameters = cleanJsonSchema(inputSchema, { target: 'gemini' });
    // Gemini rejects an object schema without properties; a tool without arguments omits it.
    return hasProperties(parameters) ? { name, description, parameters } : { name, description };
  });
  const prepared: PreparedGeminiTools = { tools: [{ functionDeclarations }] };
  if (toolChoice === undefined) return prepared;
  if (typeof toolChoice === 'object') {
    if (!tools.some((tool) => tool.name === toolChoice.toolName)) {
      throw new CairnError(
        'INVALID_ARGUMENT',
        `toolChoice names ${JSON.stringify(toolChoice.toolName)}, which is not among the request's tools`,
        { details: { toolName: toolChoice.toolName } },
      );
    }
    prepared.toolConfig = {
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [toolChoice.toolName] },
    };
    return prepared;
  }
  const mode = toolChoice === 'required' ? 'ANY' : toolChoice === 'none' ? 'NONE' : 'AUTO';
  prepared.toolConfig = { functionCallingConfig: { mode } };
  return prepared;
}

function hasProperties(schema: Record<string, unknown>): boolean {
  if (schema.type !== 'object') return true;
  const properties = schema.properties;
  return typeof properties === 'object' && properties !== null && Object.keys(properties).length > 0;
}
