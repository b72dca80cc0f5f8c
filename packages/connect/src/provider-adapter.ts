import { CairnError, definedFields, type ModelAdapter } from '@cairn/core';
import { importOptionalPackage } from './import-optional-package.js';
import { PROVIDER_NAMES, type ProviderName } from './provider-names.js';

/** The model used when none is named: a current, fast, affordable one of each provider. */
export const DEFAULT_MODEL_IDS = {
  openai: 'gpt-4.1-mini',
  anthropic: 'claude-sonnet-5-5',
  gemini: 'gemini-2.5-flash',
} as const satisfies Record<Exclude<ProviderName, 'openai-compatible'>, string>;

// Given explicitly: otherwise the SDKs would read OPENAI_BASE_URL / ANTHROPIC_BASE_URL from
// process.env, behind the back of the environment the caller handed over.
const OPENAI_API_URL = 'https://api.openai.com/v1';
const ANTHROPIC_API_URL = 'https://api.anthropic.com';

/**
 * OpenAI itself (no base URL, or one on api.openai.com) is spoken to through the Responses API,
 * which OpenAI recommends and which alone returns reasoning; any other server through Chat
 * Completions, the API OpenAI-compatible servers (Ollama, vLLM, llama.cpp) and the demo speak.
 */
function isOpenAIPlatform(baseURL: string | undefined): boolean {
  return baseURL === undefined || (URL.canParse(baseURL) && new URL(baseURL).hostname === 'api.openai.com');
}

/** Exactly what a provider's adapter is connected with. */
export interface ProviderConnection {
  model: string;
  apiKey: string;
  baseURL?: string;
  /**
   * OpenAI-speaking providers: the media types of the parts the model takes (a local vision model
   * behind an OpenAI-compatible server, say); absent, the adapter's own default for the model.
   */
  inputMediaTypes?: readonly string[];
}

/**
 * The provider's real adapter, connected with exactly the given key and base URL (`openai` on
 * api.openai.com: the Responses adapter; any other OpenAI-speaking server: Chat Completions). Only the one
 * provider's SDK is loaded, when it is needed: an app's start-up should not wait for three SDKs.
 * Each provider package is an optional peer: `PACKAGE_MISSING` when the chosen one is not installed.
 */
export async function createProviderAdapter(
  provider: ProviderName,
  connection: ProviderConnection,
): Promise<ModelAdapter> {
  const { model, apiKey, baseURL, inputMediaTypes } = connection;
  switch (provider) {
    case 'openai':
    case 'openai-compatible': {
      const { createOpenAIAdapter, createOpenAIResponsesAdapter } = await importOptionalPackage(
        '@cairn/provider-openai',
        `the ${provider} provider`,
        () => import('@cairn/provider-openai'),
      );
      const options = {
        model,
        apiKey,
        baseURL: baseURL ?? OPENAI_API_URL,
        ...definedFields({ inputMediaTypes }),
      };
      return provider === 'openai' && isOpenAIPlatform(baseURL)
        ? createOpenAIResponsesAdapter(options)
        : createOpenAIAdapter(options);
    }
    case 'anthropic': {
      const { createAnthropicAdapter } = await importOptionalPackage(
        '@cairn/provider-anthropic',
        'the anthropic provider',
        () => import('@cairn/provider-anthropic'),
      );
      return createAnthropicAdapter({ model, apiKey, baseURL: baseURL ?? ANTHROPIC_API_URL });
    }
    case 'gemini': {
      const { createGeminiAdapter } = await importOptionalPackage(
        '@cairn/provider-gemini',
        'the gemini provider',
        () => import('@cairn/provider-gemini'),
      );
      return createGeminiAdapter({ model, apiKey, ...definedFields({ baseURL }) });
    }
    default:
      throw new CairnError(
        'INVALID_ARGUMENT',
        `provider must be one of ${PROVIDER_NAMES.join(', ')}, got ${JSON.stringify(provider as unknown)}`,
      );
  }
}
