import { assertSupportedParts, type ModelRequest } from '@cairn/core';
import { convertToGeminiContents } from './convert-to-gemini-contents.js';
import type {
  GeminiContent,
  GeminiGenerationConfig,
  GeminiSystemInstruction,
  GeminiTool,
  GeminiToolConfig,
} from './gemini-api-types.js';
import { GEMINI_INPUT_MEDIA_TYPES, nestsFunctionResponseMedia } from './gemini-input-media.js';
import { type GeminiProviderOptions, readGeminiProviderOptions } from './gemini-provider-options.js';
import { prepareGeminiOutput } from './prepare-gemini-output.js';
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

/**
 * Builds the Gemini request body for `modelId`; the same for `generate` and `stream`, so both send
 * the same JSON. A part Gemini cannot take is refused first (`UNSUPPORTED_CONTENT`), nothing sent.
 */
export function prepareGeminiRequest(request: ModelRequest, modelId: string): GeminiRequest {
  assertSupportedParts(request.messages, {
    provider: 'gemini',
    modelId,
    mediaTypes: GEMINI_INPUT_MEDIA_TYPES,
    urls: true,
    inToolResults: true,
  });
  const options = readGeminiProviderOptions(request.providerOptions);
  const { systemInstruction, contents } = convertToGeminiContents(request.messages, {
    nestFunctionResponseMedia:
      options.functionResponseMedia === undefined
        ? nestsFunctionResponseMedia(modelId)
        : options.functionResponseMedia === 'nested',
  });
  const { tools, toolConfig } = prepareGeminiTools(request.tools, request.toolChoice);
  const settings = request.settings ?? {};
  const generationConfig: GeminiGenerationConfig = {};
  if (settings.maxOutputTokens !== undefined) generationConfig.maxOutputTokens = settings.maxOutputTokens;
  if (settings.temperature !== undefined) generationConfig.temperature = settings.temperature;
  if (settings.topP !== undefined) generationConfig.topP = settings.topP;
  if (settings.stopSequences !== undefined) generationConfig.stopSequences = settings.stopSequences;
  if (settings.seed !== undefined) generationConfig.seed = settings.seed;
  if (options.thinkingConfig !== undefined) generationConfig.thinkingConfig = options.thinkingConfig;
  if (request.output !== undefined) Object.assign(generationConfig, prepareGeminiOutput(request.output));

  const body: GeminiRequest = { contents, generationConfig };
  if (systemInstruction !== undefined) body.systemInstruction = systemInstruction;
  if (tools !== undefined) body.tools = tools;
  if (toolConfig !== undefined) body.toolConfig = toolConfig;
  if (options.safetySettings !== undefined) body.safetySettings = options.safetySettings;
  return body;
}
