import { definedFields, type ModelRequest, type ProviderMetadata } from '@cairn/core';
import type { SpecificationVersion } from './ai-sdk-language-model.js';
import type { AiSdkPrompt, AiSdkProviderOptions } from './ai-sdk-types.js';
import { convertToAiSdkPrompt } from './convert-to-ai-sdk-prompt.js';
import { type AiSdkTools, prepareAiSdkTools } from './prepare-ai-sdk-tools.js';

/** The call options `doGenerate` and `doStream` take, in the fields Cairn sets (all versions share them). */
export interface AiSdkCallOptions extends AiSdkTools {
  prompt: AiSdkPrompt;
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  stopSequences?: string[];
  seed?: number;
  responseFormat?: { type: 'json'; schema: Record<string, unknown>; name?: string; description?: string };
  providerOptions?: AiSdkProviderOptions;
  headers?: Record<string, string>;
  abortSignal?: AbortSignal;
}

export interface AiSdkCallContext {
  version: SpecificationVersion;
  /** The adapter's `provider`: its namespace in `providerMetadata`. */
  provider: string;
  /** The adapter's own `providerOptions`, under the request's. */
  providerOptions?: ProviderMetadata | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * A Cairn request as AI SDK call options: the prompt, tools, settings, `output` as a JSON
 * `responseFormat` with its schema, and `providerOptions` passed through as they are — they are
 * namespaced the same way in both (`{ anthropic: { thinking } }`, `{ mistral: { safePrompt } }`),
 * and each AI SDK provider reads only its own namespace. The request's namespaces replace the
 * adapter's of the same name.
 */
export function buildAiSdkCallOptions(request: ModelRequest, context: AiSdkCallContext): AiSdkCallOptions {
  const { maxOutputTokens, temperature, topP, stopSequences, seed } = request.settings ?? {};
  const providerOptions = { ...context.providerOptions, ...request.providerOptions };
  const output = request.output;
  return {
    prompt: convertToAiSdkPrompt(request.messages, { version: context.version, provider: context.provider }),
    ...prepareAiSdkTools(request.tools, request.toolChoice),
    ...definedFields({ maxOutputTokens, temperature, topP, seed }),
    ...(stopSequences !== undefined && stopSequences.length > 0 ? { stopSequences } : {}),
    ...(output === undefined
      ? {}
      : {
          responseFormat: {
            type: 'json' as const,
            schema: output.schema,
            name: output.name ?? 'output',
            ...definedFields({ description: output.description }),
          },
        }),
    ...(Object.keys(providerOptions).length > 0
      ? { providerOptions: providerOptions as AiSdkProviderOptions }
      : {}),
    ...definedFields({ headers: request.headers, abortSignal: context.signal }),
  };
}
