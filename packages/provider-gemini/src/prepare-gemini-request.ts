import type { ModelRequest } from '@cairn/core';
import { convertToGeminiContents } from './convert-to-gemini-contents.js';
import type {
  GeminiContent,
  GeminiGenerationConfig,
  GeminiSystemInstruction,
  GeminiTool,
  GeminiToolConfig,
} from './gemini-api-types.js';
import { type GeminiProviderOptions, readGeminiProviderOptions } from './gemini-provider-options.js';
import { prepareGeminiTools } from './prepare-gemini-tools.js';

/** Everything of one `generateContent` request body that depends on the `ModelRequest`. */
export interface GeminiRequest {
  systemInstruction?: GeminiSystemInstruction;
  contents: GeminiContent[];
  tools?: GeminiTool[];
  toolConfig?: GeminiToolConfig;
  generationConfig: GeminiGenerationConfig;
  safetySettings?: GeminiProviderOptions['safetySettings'];
}

/** Builds the Gemini request body; the same for `generate` and `stream`, so both send the same JSON. */
export function prepareGeminiRequest(request: ModelRequest): GeminiRequest {
  const { systemInstruction, contents } = convertToGeminiContents(request.messages);
  const { tools, toolConfig } = prepareGeminiTools(request.tools, request.toolChoice);
  const options = readGeminiProviderOptions(request.providerOptions);
  const settings = request.settings ?? {};
  const generationConfig: GeminiGenerationConfig = {};
  if (settings.maxOutputTokens !== undefined) generationConfig.maxOutputTokens = settings.maxOutputTokens;
  if (settings.temperature !== undefined) generationConfig.temperature = settings.temperature;
  if (settings.topP !== undefined) generationConfig.topP = settings.topP;
  if (settings.stopSequences !== undefined) generationConfig.stopSequences = settings.stopSequences;
  if (settings.seed !== undefined) generationConfig.seed = settings.seed;
  if (options.thinkingConfig !== undefined) generationConfig.thinkingConfig = options.thinkingConfig;

  const body: GeminiRequest = { contents, generationConfig };
  if (systemInstruction !== undefined) body.systemInstruction = systemInstruction;
  if (tools !== undefined) body.tools = tools;
  if (toolConfig !== undefined) body.toolConfig = toolConfig;
  if (options.safetySettings !== undefined) body.safetySettings = options.safetySettings;
  return body;
}
