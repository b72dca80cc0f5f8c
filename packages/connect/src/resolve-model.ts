import { CairnError, definedFields } from '@cairn/core';
import { apiKeysIn, type KeyedProvider, keyVariablesOf } from './api-key-variables.js';
import type { ModelSettings } from './model-settings.js';
import { nonBlank } from './non-blank.js';
import { probeModels } from './probe-models.js';
import { createProviderAdapter, DEFAULT_MODEL_IDS, type ProviderConnection } from './provider-adapter.js';
import { isProviderName, PROVIDER_NAMES, type ProviderName } from './provider-names.js';
import { type ConfiguredURL, reachBaseURL } from './reach-base-url.js';
import type { ResolvedModel } from './resolved-model.js';
import { howToSet, isFlag, type SettingNames, settingNames } from './setting-names.js';
import {
  usesGoogleCredentials,
  VERTEX_AI_KEY_VARIABLES,
  VERTEX_AI_SWITCH,
  type VertexAISettings,
  vertexAIIn,
  vertexAIKeyIn,
} from './vertex-ai-settings.js';

export interface ResolveModelOptions {
  /**
   * The local OpenAI-compatible server tried when nothing is configured. Default Ollama's,
   * `http://localhost:11434/v1`; env `CAIRN_LOCAL_BASE_URL` overrides it, and `off` skips it.
   */
  localBaseURL?: string;
  /** How long to wait for the local server. Default 300 ms. */
  probeTimeoutMs?: number;
  /**
   * What to use when nothing is configured and no local server answers (the CLI passes its offline
   * demo). Without one, resolution fails with `LLM_AUTH` and what to set.
   */
  fallback?: () => Promise<ResolvedModel>;
  /** How the user gives each setting, as errors and `source` name it. Default: the CLI's flags. */
  names?: Partial<SettingNames>;
}

const DEFAULT_LOCAL_BASE_URL = 'http://localhost:11434/v1';
const DEFAULT_PROBE_TIMEOUT_MS = 300;
// Local servers take any key, but the OpenAI SDK insists on one.
const NO_KEY = 'no-key';

/**
 * `CAIRN_INPUT_MEDIA_TYPES` (comma-separated, `image/*` for any image): what an OpenAI-speaking
 * model takes besides text, for servers whose models the adapter cannot know (Ollama, vLLM).
 */
function inputMediaTypesIn(env: NodeJS.ProcessEnv): { inputMediaTypes?: string[] } {
  const listed = nonBlank(env.CAIRN_INPUT_MEDIA_TYPES)
    ?.split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return listed === undefined ? {} : { inputMediaTypes: listed };
}

/** Everything one resolution works with. */
interface Resolution {
  settings: ModelSettings;
  env: NodeJS.ProcessEnv;
  names: SettingNames;
}

async function connected(
  connection: ProviderConnection & { provider: ProviderName; source: string },
): Promise<ResolvedModel> {
  return {
    adapter: await createProviderAdapter(connection.provider, connection),
    provider: connection.provider,
    modelId: connection.model,
    source: connection.source,
    demo: false,
    close: async () => {},
  };
}

/** The base URL of the settings, named as where it came from (the `baseURL` setting by default). */
function givenURL({ settings, names }: Resolution): ConfiguredURL | undefined {
  const url = nonBlank(settings.baseURL);
  return url === undefined ? undefined : { url, from: settings.baseURLFrom ?? names.baseURL };
}

/** The settings' base URL applies to every provider; `OPENAI_BASE_URL` to the OpenAI-speaking ones only. */
function configuredURL(provider: ProviderName, resolution: Resolution): ConfiguredURL | undefined {
  const given = givenURL(resolution);
  if (given !== undefined) return given;
  const fromEnv = provider.startsWith('openai') ? nonBlank(resolution.env.OPENAI_BASE_URL) : undefined;
  return fromEnv === undefined ? undefined : { url: fromEnv, from: 'OPENAI_BASE_URL' };
}

async function compatibleServer(
  configured: ConfiguredURL,
  resolution: Resolution,
  source: string,
): Promise<ResolvedModel> {
  const { settings, env, names } = resolution;
  const apiKey = nonBlank(settings.apiKey) ?? nonBlank(env.OPENAI_API_KEY);
  const listed = await reachBaseURL(configured, apiKey, names);
  const model = nonBlank(settings.model) ?? listed[0];
  if (model === undefined) {
    throw new CairnError('INVALID_ARGUMENT', `${configured.url} lists no models`, {
      details: { fix: howToSet([names.model]) },
    });
  }
  const connection = { model, apiKey: apiKey ?? NO_KEY, baseURL: configured.url, ...inputMediaTypesIn(env) };
  return connected({ provider: 'openai-compatible', source, ...connection });
}

async function keyedProvider(
  provider: KeyedProvider,
  apiKey: string,
  resolution: Resolution,
  source: string,
): Promise<ResolvedModel> {
  const { settings, env, names } = resolution;
  const configured = configuredURL(provider, resolution);
  if (configured !== undefined)
    await reachBaseURL(configured, provider === 'openai' ? apiKey : undefined, names);
  // The Anthropic SDK's own variable, passed on as the SDK would read it.
  const baseURL =
    configured?.url ?? (provider === 'anthropic' ? nonBlank(env.ANTHROPIC_BASE_URL) : undefined);
  const model = nonBlank(settings.model) ?? DEFAULT_MODEL_IDS[provider];
  const media = provider === 'openai' ? inputMediaTypesIn(env) : {};
  return connected({ provider, source, model, apiKey, ...definedFields({ baseURL }), ...media });
}

/**
 * Gemini on Vertex AI (`GOOGLE_GENAI_USE_VERTEXAI=true`), authorised as `@google/genai` would be: a
 * key given directly (express mode), else the environment's project or location (Google
 * credentials), else its key (express mode).
 */
async function vertexAIProvider(
  vertexAI: VertexAISettings,
  resolution: Resolution,
  source: string,
): Promise<ResolvedModel> {
  const { settings, env, names } = resolution;
  const given = nonBlank(settings.apiKey);
  const apiKey = given ?? (usesGoogleCredentials(vertexAI) ? undefined : vertexAIKeyIn(env));
  if (apiKey === undefined && !usesGoogleCredentials(vertexAI)) {
    throw new CairnError('LLM_AUTH', 'gemini on Vertex AI needs Google credentials or an API key', {
      details: {
        fix: `set GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION (Application Default Credentials), or ${howToSet([...VERTEX_AI_KEY_VARIABLES, names.apiKey])} (express mode)`,
      },
    });
  }
  const configured = configuredURL('gemini', resolution);
  if (configured !== undefined) await reachBaseURL(configured, undefined, names);
  return connected({
    provider: 'gemini',
    source: source === VERTEX_AI_SWITCH ? source : `${source}, on Vertex AI`,
    model: nonBlank(settings.model) ?? DEFAULT_MODEL_IDS.gemini,
    // Express mode takes no project or location.
    vertexAI: apiKey === undefined ? vertexAI : {},
    ...definedFields({ apiKey, baseURL: configured?.url }),
  });
}

/** Where the explicit provider came from: the settings say, else it was given by its setting name. */
const providerSource = ({ settings, names }: Resolution): string => settings.providerFrom ?? names.provider;

async function explicitProvider(provider: ProviderName, resolution: Resolution): Promise<ResolvedModel> {
  const { settings, env, names } = resolution;
  if (provider === 'openai-compatible') {
    const configured = configuredURL(provider, resolution);
    if (configured === undefined) {
      const orEnv = names.baseURL === 'OPENAI_BASE_URL' ? '' : ' or set OPENAI_BASE_URL';
      throw new CairnError('INVALID_ARGUMENT', 'openai-compatible needs a base URL', {
        details: { fix: `${howToSet([names.baseURL])} (e.g. http://localhost:11434/v1)${orEnv}` },
      });
    }
    return compatibleServer(configured, resolution, providerSource(resolution));
  }
  const vertexAI = provider === 'gemini' ? vertexAIIn(env) : undefined;
  if (vertexAI !== undefined) return vertexAIProvider(vertexAI, resolution, providerSource(resolution));
  const apiKey =
    nonBlank(settings.apiKey) ?? apiKeysIn(env).find((found) => found.provider === provider)?.key;
  if (apiKey === undefined) {
    throw new CairnError('LLM_AUTH', `${provider} needs an API key`, {
      details: { fix: howToSet([...keyVariablesOf(provider), names.apiKey]) },
    });
  }
  return keyedProvider(provider, apiKey, resolution, providerSource(resolution));
}

/** A local OpenAI-compatible server (Ollama by default) that answers quickly and serves a model. */
async function localServer(
  { settings, env }: Resolution,
  options: ResolveModelOptions,
): Promise<ResolvedModel | undefined> {
  const baseURL = nonBlank(env.CAIRN_LOCAL_BASE_URL) ?? options.localBaseURL ?? DEFAULT_LOCAL_BASE_URL;
  if (baseURL.toLowerCase() === 'off') return undefined;
  const probe = await probeModels(baseURL, { timeoutMs: options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS });
  if (!probe.reachable || probe.status !== 200) return undefined;
  const model = nonBlank(settings.model) ?? probe.modelIds[0];
  if (model === undefined) return undefined;
  const connection = { model, apiKey: NO_KEY, baseURL, ...inputMediaTypesIn(env) };
  return connected({ provider: 'openai-compatible', source: `local server at ${baseURL}`, ...connection });
}

function unknownProvider(provider: string, resolution: Resolution): CairnError {
  return new CairnError(
    'INVALID_ARGUMENT',
    `${providerSource(resolution)} must be one of ${PROVIDER_NAMES.join(', ')}, got ${JSON.stringify(provider)}`,
  );
}

function keyWithoutProvider({ names }: Resolution): CairnError {
  const fix = isFlag(names.provider)
    ? `add ${names.provider} openai, anthropic or gemini, or ${names.baseURL} for an OpenAI-compatible server`
    : `set ${names.provider} to openai, anthropic or gemini, or ${names.baseURL} to an OpenAI-compatible server`;
  return new CairnError('INVALID_ARGUMENT', `${names.apiKey} needs a provider`, { details: { fix } });
}

function nothingConfigured({ names }: Resolution): CairnError {
  const urls = [...new Set([names.baseURL, 'OPENAI_BASE_URL'])].join(' or ');
  return new CairnError(
    'LLM_AUTH',
    'no model configured: no API key, no base URL, no local server answering',
    {
      details: {
        fix: `set OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY, or point ${urls} at an OpenAI-compatible server such as Ollama`,
      },
    },
  );
}

/**
 * The model to talk to: an explicit provider; else a base URL given directly; else the first API
 * key in the environment (OpenAI, Anthropic, Gemini — on Vertex AI, key or Google credentials,
 * when `GOOGLE_GENAI_USE_VERTEXAI=true`); else an OpenAI-compatible server (a base URL
 * from elsewhere, such as a config file, then `OPENAI_BASE_URL`); else a local one that answers;
 * else `options.fallback`. Misconfiguration, or nothing at all without a fallback, fails with a
 * `CairnError` whose `details.fix` says what to do.
 */
export async function resolveModel(
  settings: ModelSettings,
  env: NodeJS.ProcessEnv,
  options: ResolveModelOptions = {},
): Promise<ResolvedModel> {
  const resolution: Resolution = { settings, env, names: settingNames(options.names) };
  if (settings.provider !== undefined) {
    // Settings from plain JavaScript or an unchecked config can name anything.
    if (!isProviderName(settings.provider)) throw unknownProvider(settings.provider, resolution);
    return explicitProvider(settings.provider, resolution);
  }
  const given = givenURL(resolution);
  // Given directly, it beats the environment's keys; from a config file it does not (flags > env > config).
  if (given !== undefined && given.from === resolution.names.baseURL) {
    return compatibleServer(given, resolution, given.from);
  }
  if (nonBlank(settings.apiKey) !== undefined) throw keyWithoutProvider(resolution);
  const found = apiKeysIn(env)[0];
  const vertexAI = vertexAIIn(env);
  // With Vertex AI asked for, Gemini's turn (after OpenAI's and Anthropic's keys) is Vertex AI's,
  // with a Gemini key (express mode) or with none for Google credentials.
  if (
    vertexAI !== undefined &&
    (found?.provider === 'gemini' || (found === undefined && usesGoogleCredentials(vertexAI)))
  ) {
    return vertexAIProvider(vertexAI, resolution, VERTEX_AI_SWITCH);
  }
  if (found !== undefined) return keyedProvider(found.provider, found.key, resolution, found.variable);
  if (given !== undefined) return compatibleServer(given, resolution, given.from);
  const envURL = nonBlank(env.OPENAI_BASE_URL);
  if (envURL !== undefined) {
    return compatibleServer({ url: envURL, from: 'OPENAI_BASE_URL' }, resolution, 'OPENAI_BASE_URL');
  }
  const local = await localServer(resolution, options);
  if (local !== undefined) return local;
  if (options.fallback !== undefined) return options.fallback();
  throw nothingConfigured(resolution);
}
