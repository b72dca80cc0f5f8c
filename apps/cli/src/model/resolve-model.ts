import { cliFailure } from '../cli-error.js';
import { probeModels } from './probe-models.js';
import { createProviderAdapter, DEFAULT_MODEL_IDS, type ProviderConnection } from './provider-adapter.js';
import type { ModelSettings, ProviderName, ResolvedModel } from './resolved-model.js';

export { describeModel } from './describe-model.js';
export {
  isProviderName,
  type ModelSettings,
  PROVIDER_NAMES,
  type ProviderName,
  type ResolvedModel,
} from './resolved-model.js';

export interface ResolveModelOptions {
  /**
   * The local OpenAI-compatible server tried when nothing is configured. Default Ollama's,
   * `http://localhost:11434/v1`; env `CAIRN_LOCAL_BASE_URL` overrides it, and `off` skips it.
   */
  localBaseURL?: string;
  /** How long to wait for the local server. Default 300 ms. */
  probeTimeoutMs?: number;
}

const DEFAULT_LOCAL_BASE_URL = 'http://localhost:11434/v1';
const DEFAULT_PROBE_TIMEOUT_MS = 300;
// A configured server is expected to be there, so it gets longer than the local guess.
const CONFIGURED_PROBE_TIMEOUT_MS = 2_000;
// Local servers take any key, but the OpenAI SDK insists on one.
const NO_KEY = 'no-key';

const KEY_VARIABLES = [
  ['OPENAI_API_KEY', 'openai'],
  ['ANTHROPIC_API_KEY', 'anthropic'],
  ['GEMINI_API_KEY', 'gemini'],
  ['GOOGLE_API_KEY', 'gemini'],
] as const;

type KeyedProvider = (typeof KEY_VARIABLES)[number][1];

/** A base URL the user set, and where: `--base-url` or `OPENAI_BASE_URL`. */
interface ConfiguredURL {
  url: string;
  from: string;
}

const nonBlank = (value: string | undefined): string | undefined =>
  value === undefined || value.trim() === '' ? undefined : value.trim();

function envKeys(env: NodeJS.ProcessEnv) {
  return KEY_VARIABLES.flatMap(([variable, provider]) => {
    const key = nonBlank(env[variable]);
    return key === undefined ? [] : [{ variable, provider, key }];
  });
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

/** Checks a configured base URL answers at all (any HTTP status will do); returns the models it lists. */
async function reach({ url, from }: ConfiguredURL, apiKey: string | undefined): Promise<string[]> {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed !== undefined && (parsed.username !== '' || parsed.password !== '')) {
    // Never echoed: the URL carries a secret (and fetch refuses such URLs anyway).
    throw cliFailure(
      'INVALID_ARGUMENT',
      `${from} has a user name or password in it (${parsed.protocol}//***@${parsed.host}${parsed.pathname})`,
      'remove them from the URL and pass the key with --api-key or OPENAI_API_KEY',
    );
  }
  if (parsed?.protocol !== 'http:' && parsed?.protocol !== 'https:') {
    throw cliFailure(
      'INVALID_ARGUMENT',
      `${from} is not an http(s) URL: ${url}`,
      'give the API root with its scheme, e.g. http://localhost:11434/v1',
    );
  }
  const probe = await probeModels(url, {
    timeoutMs: CONFIGURED_PROBE_TIMEOUT_MS,
    ...(apiKey === undefined ? {} : { apiKey }),
  });
  if (!probe.reachable) {
    throw cliFailure(
      'LLM_UNAVAILABLE',
      `cannot reach ${url}: ${probe.reason}`,
      'start the server, or fix --base-url / OPENAI_BASE_URL',
    );
  }
  return probe.modelIds;
}

/** `--base-url` applies to every provider; `OPENAI_BASE_URL` to the OpenAI-speaking ones only. */
function configuredURL(provider: ProviderName, settings: ModelSettings, env: NodeJS.ProcessEnv) {
  const flag = nonBlank(settings.baseURL);
  if (flag !== undefined) return { url: flag, from: '--base-url' };
  const fromEnv = provider.startsWith('openai') ? nonBlank(env.OPENAI_BASE_URL) : undefined;
  return fromEnv === undefined ? undefined : { url: fromEnv, from: 'OPENAI_BASE_URL' };
}

async function compatibleServer(
  configured: ConfiguredURL,
  settings: ModelSettings,
  env: NodeJS.ProcessEnv,
  source: string,
): Promise<ResolvedModel> {
  const apiKey = nonBlank(settings.apiKey) ?? nonBlank(env.OPENAI_API_KEY);
  const listed = await reach(configured, apiKey);
  const model = nonBlank(settings.model) ?? listed[0];
  if (model === undefined) {
    throw cliFailure('INVALID_ARGUMENT', `${configured.url} lists no models`, 'pass --model');
  }
  const connection = { model, apiKey: apiKey ?? NO_KEY, baseURL: configured.url };
  return connected({ provider: 'openai-compatible', source, ...connection });
}

async function keyedProvider(
  provider: KeyedProvider,
  apiKey: string,
  settings: ModelSettings,
  env: NodeJS.ProcessEnv,
  source: string,
): Promise<ResolvedModel> {
  const configured = configuredURL(provider, settings, env);
  if (configured !== undefined) await reach(configured, provider === 'openai' ? apiKey : undefined);
  // The Anthropic SDK's own variable, passed on as the SDK would read it.
  const baseURL =
    configured?.url ?? (provider === 'anthropic' ? nonBlank(env.ANTHROPIC_BASE_URL) : undefined);
  const model = nonBlank(settings.model) ?? DEFAULT_MODEL_IDS[provider];
  return connected({ provider, source, model, apiKey, ...(baseURL === undefined ? {} : { baseURL }) });
}

async function explicitProvider(
  provider: ProviderName,
  settings: ModelSettings,
  env: NodeJS.ProcessEnv,
): Promise<ResolvedModel> {
  if (provider === 'openai-compatible') {
    const configured = configuredURL(provider, settings, env);
    if (configured === undefined) {
      throw cliFailure(
        'INVALID_ARGUMENT',
        'openai-compatible needs a base URL',
        'pass --base-url (e.g. http://localhost:11434/v1) or set OPENAI_BASE_URL',
      );
    }
    return compatibleServer(configured, settings, env, '--provider');
  }
  const apiKey = nonBlank(settings.apiKey) ?? envKeys(env).find((found) => found.provider === provider)?.key;
  if (apiKey === undefined) {
    const variables = KEY_VARIABLES.filter(([, owner]) => owner === provider).map(([variable]) => variable);
    throw cliFailure(
      'LLM_AUTH',
      `${provider} needs an API key`,
      `set ${variables.join(' or ')} or pass --api-key`,
    );
  }
  return keyedProvider(provider, apiKey, settings, env, '--provider');
}

/** A local OpenAI-compatible server (Ollama by default) that answers quickly and serves a model. */
async function localServer(
  settings: ModelSettings,
  env: NodeJS.ProcessEnv,
  options: ResolveModelOptions,
): Promise<ResolvedModel | undefined> {
  const baseURL = nonBlank(env.CAIRN_LOCAL_BASE_URL) ?? options.localBaseURL ?? DEFAULT_LOCAL_BASE_URL;
  if (baseURL.toLowerCase() === 'off') return undefined;
  const probe = await probeModels(baseURL, { timeoutMs: options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS });
  if (!probe.reachable || probe.status !== 200) return undefined;
  const model = nonBlank(settings.model) ?? probe.modelIds[0];
  if (model === undefined) return undefined;
  const connection = { model, apiKey: NO_KEY, baseURL };
  return connected({ provider: 'openai-compatible', source: `local server at ${baseURL}`, ...connection });
}

function demoChunkDelayMs(env: NodeJS.ProcessEnv): number | undefined {
  const value = nonBlank(env.CAIRN_DEMO_DELAY_MS);
  const delay = value === undefined ? Number.NaN : Number(value);
  return Number.isSafeInteger(delay) && delay >= 0 ? delay : undefined;
}

/**
 * The model to talk to: an explicit `--provider`; else the first API key in the environment
 * (OpenAI, Anthropic, Gemini); else an OpenAI-compatible server (`--base-url`, `OPENAI_BASE_URL`);
 * else a local one that answers; else the offline demo. Misconfiguration fails with the fix.
 */
export async function resolveModel(
  settings: ModelSettings,
  env: NodeJS.ProcessEnv,
  options: ResolveModelOptions = {},
): Promise<ResolvedModel> {
  if (settings.provider !== undefined) return explicitProvider(settings.provider, settings, env);
  const flagURL = nonBlank(settings.baseURL);
  const from = settings.baseURLFrom ?? '--base-url';
  // A flag beats the environment's keys; a config file's URL does not (flags > env > config).
  const fromFlag = from === '--base-url';
  if (flagURL !== undefined && fromFlag) {
    return compatibleServer({ url: flagURL, from }, settings, env, from);
  }
  if (nonBlank(settings.apiKey) !== undefined) {
    throw cliFailure(
      'INVALID_ARGUMENT',
      '--api-key needs a provider',
      'add --provider openai, anthropic or gemini, or --base-url for an OpenAI-compatible server',
    );
  }
  const found = envKeys(env)[0];
  if (found !== undefined) return keyedProvider(found.provider, found.key, settings, env, found.variable);
  if (flagURL !== undefined) return compatibleServer({ url: flagURL, from }, settings, env, from);
  const envURL = nonBlank(env.OPENAI_BASE_URL);
  if (envURL !== undefined) {
    return compatibleServer({ url: envURL, from: 'OPENAI_BASE_URL' }, settings, env, 'OPENAI_BASE_URL');
  }
  const local = await localServer(settings, env, options);
  if (local !== undefined) return local;
  const chunkDelayMs = demoChunkDelayMs(env);
  // Loaded only when it is the answer: it brings the mock servers of @cairn/testing.
  const { startDemoModel } = await import('../demo/demo-model.js');
  const demo = await startDemoModel(chunkDelayMs === undefined ? {} : { chunkDelayMs });
  return { ...demo, source: 'no API key found' };
}
