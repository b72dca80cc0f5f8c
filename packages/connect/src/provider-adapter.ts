import { CairnError, definedFields, type ModelAdapter } from '@cairn/core';
import { importOptionalPackage } from './import-optional-package.js';
import { PROVIDER_NAMES, type ProviderName } from './provider-names.js';
import { usesGoogleCredentials, type VertexAISettings } from './vertex-ai-settings.js';

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
  /** The key. Every provider needs one, but Gemini on Vertex AI with a project or location. */
  apiKey?: string;
  baseURL?: string;
  /**
   * OpenAI-speaking providers: the media types of the parts the model takes (a local vision model
   * behind an OpenAI-compatible server, say); absent, the adapter's own default for the model.
   */
  inputMediaTypes?: readonly string[];
  /**
   * Gemini only: call Vertex AI instead of the Gemini API. With `apiKey`, in express mode (the
   * project and location are not used); without, with Google Application Default Credentials for
   * the `project` and `location`.
   */
  vertexAI?: VertexAISettings;
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
  const { model, baseURL, inputMediaTypes, vertexAI } = connection;
  if (provider === 'gemini' && vertexAI !== undefined) return vertexAIAdapter(connection, vertexAI);
  const apiKey = connection.apiKey;
  if (apiKey === undefined)
    throw new CairnError('INVALID_ARGUMENT', `${provider}: the connection needs an apiKey`);
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
      const { createGeminiAdapter } = await importGemini();
      return createGeminiAdapter({ model, apiKey, ...definedFields({ baseURL }) });
    }
    default:
      throw new CairnError(
        'INVALID_ARGUMENT',
        `provider must be one of ${PROVIDER_NAMES.join(', ')}, got ${JSON.stringify(provider as unknown)}`,
      );
  }
}

const importGemini = () =>
  importOptionalPackage(
    '@cairn/provider-gemini',
    'the gemini provider',
    () => import('@cairn/provider-gemini'),
  );

/** Gemini on Vertex AI: express mode with a key, else Google credentials for a project or location. */
async function vertexAIAdapter(
  { model, apiKey, baseURL }: ProviderConnection,
  vertexAI: VertexAISettings,
): Promise<ModelAdapter> {
  if (apiKey === undefined && !usesGoogleCredentials(vertexAI)) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      'gemini on Vertex AI needs an apiKey (express mode) or a project or location (Google credentials)',
    );
  }
  const { createGeminiAdapter } = await importGemini();
  // A key means express mode, where the adapter refuses a project or location.
  const backend = apiKey === undefined ? vertexAI : { apiKey };
  return createGeminiAdapter({ model, vertexai: true, ...definedFields({ ...backend, baseURL }) });
}
