import { ScriptedModel } from '@cairn/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeModel } from './describe-model.js';
import type { ModelSettings } from './model-settings.js';
import { resolveModel } from './resolve-model.js';
import type { ResolvedModel } from './resolved-model.js';
import { closedPortURL, failure, type ModelsServer, modelList, startModelsServer } from './test-support.js';

// No local server is probed unless a test asks for one.
const NO_LOCAL = { CAIRN_LOCAL_BASE_URL: 'off' };

let server: ModelsServer | undefined;
let resolved: ResolvedModel | undefined;
afterEach(async () => {
  await resolved?.close();
  await server?.close();
  resolved = undefined;
  server = undefined;
});

async function resolve(
  settings: ModelSettings,
  env: NodeJS.ProcessEnv,
  options?: Parameters<typeof resolveModel>[2],
) {
  resolved = await resolveModel(settings, env, options);
  const { provider, modelId, source, demo } = resolved;
  return { provider, modelId, source, demo, adapter: resolved.adapter.provider };
}

describe('resolveModel: an explicit provider', () => {
  it('uses the provider with its key from the environment and its default model', async () => {
    const env = { ...NO_LOCAL, OPENAI_API_KEY: 'sk-o', ANTHROPIC_API_KEY: 'sk-a' };
    await expect(resolve({ provider: 'anthropic' }, env)).resolves.toEqual({
      provider: 'anthropic',
      modelId: 'claude-sonnet-5-5',
      source: '--provider',
      demo: false,
      adapter: 'anthropic',
    });
    await expect(
      resolve({ provider: 'gemini', model: 'gemini-2.5-pro' }, { GOOGLE_API_KEY: 'g' }),
    ).resolves.toEqual({
      provider: 'gemini',
      modelId: 'gemini-2.5-pro',
      source: '--provider',
      demo: false,
      adapter: 'gemini',
    });
    await expect(resolve({ provider: 'openai', apiKey: 'sk-flag' }, {})).resolves.toMatchObject({
      provider: 'openai',
      modelId: 'gpt-4.1-mini',
    });
  });

  it('fails with LLM_AUTH and the fix when the provider has no key, whatever other keys are set', async () => {
    await expect(
      failure(resolveModel({ provider: 'anthropic' }, { OPENAI_API_KEY: 'sk-o' })),
    ).resolves.toEqual({
      code: 'LLM_AUTH',
      message: 'anthropic needs an API key',
      fix: 'set ANTHROPIC_API_KEY or pass --api-key',
    });
    await expect(failure(resolveModel({ provider: 'gemini' }, { GEMINI_API_KEY: ' ' }))).resolves.toEqual({
      code: 'LLM_AUTH',
      message: 'gemini needs an API key',
      fix: 'set GEMINI_API_KEY or GOOGLE_API_KEY or pass --api-key',
    });
  });

  it('needs a base URL for openai-compatible, and takes --model or the first model the server lists', async () => {
    await expect(
      failure(resolveModel({ provider: 'openai-compatible' }, { OPENAI_API_KEY: 'k' })),
    ).resolves.toMatchObject({ code: 'INVALID_ARGUMENT', message: 'openai-compatible needs a base URL' });
    server = await startModelsServer({ body: modelList('llama3.2', 'qwen3') });
    const settings: ModelSettings = { provider: 'openai-compatible', baseURL: server.baseURL };
    await expect(resolve(settings, NO_LOCAL)).resolves.toEqual({
      provider: 'openai-compatible',
      modelId: 'llama3.2',
      source: '--provider',
      demo: false,
      adapter: 'openai',
    });
    await expect(resolve({ ...settings, model: 'qwen3' }, NO_LOCAL)).resolves.toMatchObject({
      modelId: 'qwen3',
    });
  });

  it('checks a --base-url given with anthropic answers', async () => {
    const baseURL = await closedPortURL();
    await expect(
      failure(resolveModel({ provider: 'anthropic', apiKey: 'a', baseURL }, NO_LOCAL)),
    ).resolves.toMatchObject({ code: 'LLM_UNAVAILABLE', message: `cannot reach ${baseURL}: ECONNREFUSED` });
  });
});

describe('resolveModel: from the environment', () => {
  it.each([
    [
      { OPENAI_API_KEY: 'o', ANTHROPIC_API_KEY: 'a', GEMINI_API_KEY: 'g' },
      'openai',
      'gpt-4.1-mini',
      'OPENAI_API_KEY',
    ],
    [{ ANTHROPIC_API_KEY: 'a', GEMINI_API_KEY: 'g' }, 'anthropic', 'claude-sonnet-5-5', 'ANTHROPIC_API_KEY'],
    [
      { OPENAI_API_KEY: '', GEMINI_API_KEY: 'g', GOOGLE_API_KEY: 'g2' },
      'gemini',
      'gemini-2.5-flash',
      'GEMINI_API_KEY',
    ],
    [{ GOOGLE_API_KEY: 'g2' }, 'gemini', 'gemini-2.5-flash', 'GOOGLE_API_KEY'],
  ])('%j → %s %s (from %s)', async (keys, provider, modelId, source) => {
    await expect(resolve({}, { ...NO_LOCAL, ...keys })).resolves.toMatchObject({ provider, modelId, source });
  });

  it('applies --model to the provider found', async () => {
    await expect(resolve({ model: 'claude-opus-4-1' }, { ANTHROPIC_API_KEY: 'a' })).resolves.toMatchObject({
      provider: 'anthropic',
      modelId: 'claude-opus-4-1',
    });
  });

  it('sends OPENAI_API_KEY to OPENAI_BASE_URL, after checking it answers (a 401 will do)', async () => {
    server = await startModelsServer({ status: 401 });
    const env = { OPENAI_API_KEY: 'sk-o', OPENAI_BASE_URL: server.baseURL };
    await expect(resolve({}, env)).resolves.toMatchObject({ provider: 'openai', source: 'OPENAI_API_KEY' });
    expect(server.requests[0]?.authorization).toBe('Bearer sk-o');
  });

  it('uses OPENAI_BASE_URL alone as an OpenAI-compatible server', async () => {
    server = await startModelsServer({ body: modelList('mistral') });
    await expect(resolve({}, { ...NO_LOCAL, OPENAI_BASE_URL: server.baseURL })).resolves.toEqual({
      provider: 'openai-compatible',
      modelId: 'mistral',
      source: 'OPENAI_BASE_URL',
      demo: false,
      adapter: 'openai',
    });
  });

  it('gives an OpenAI-compatible server the media types CAIRN_INPUT_MEDIA_TYPES lists (text only without it)', async () => {
    server = await startModelsServer({ body: modelList('llava') });
    const env = { ...NO_LOCAL, OPENAI_BASE_URL: server.baseURL };
    await resolve({}, env);
    expect(resolved?.adapter.capabilities.inputMediaTypes ?? []).toEqual([]);
    await resolve({}, { ...env, CAIRN_INPUT_MEDIA_TYPES: ' image/* , application/pdf,' });
    expect(resolved?.adapter.capabilities.inputMediaTypes).toEqual(['image/*', 'application/pdf']);
  });

  it('prefers --base-url to the keys in the environment', async () => {
    server = await startModelsServer({ body: modelList('mistral') });
    await expect(resolve({ baseURL: server.baseURL }, { ANTHROPIC_API_KEY: 'a' })).resolves.toMatchObject({
      provider: 'openai-compatible',
      source: '--base-url',
    });
  });

  it('fails with LLM_UNAVAILABLE when a configured base URL cannot be reached', async () => {
    const baseURL = await closedPortURL();
    const expected = {
      code: 'LLM_UNAVAILABLE',
      message: `cannot reach ${baseURL}: ECONNREFUSED`,
      fix: 'start the server, or fix --base-url / OPENAI_BASE_URL',
    };
    await expect(failure(resolveModel({ baseURL }, {}))).resolves.toEqual(expected);
    await expect(failure(resolveModel({}, { OPENAI_BASE_URL: baseURL }))).resolves.toEqual(expected);
    await expect(
      failure(resolveModel({}, { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: baseURL })),
    ).resolves.toEqual(expected);
  });

  it('fails with INVALID_ARGUMENT for a base URL that is no URL, a server listing no models, a lone --api-key', async () => {
    await expect(failure(resolveModel({ baseURL: 'localhost:11434' }, {}))).resolves.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: '--base-url is not an http(s) URL: localhost:11434',
    });
    server = await startModelsServer({ status: 404 });
    await expect(failure(resolveModel({ baseURL: server.baseURL }, {}))).resolves.toEqual({
      code: 'INVALID_ARGUMENT',
      message: `${server.baseURL} lists no models`,
      fix: 'pass --model',
    });
    await expect(failure(resolveModel({ apiKey: 'sk-x' }, {}))).resolves.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: '--api-key needs a provider',
    });
  });
});

/** A scripted stand-in, as the CLI's offline demo is; `closed` says whether it was released. */
function scriptedFallback(description?: string) {
  const state = { closed: false };
  const model: ResolvedModel = {
    adapter: new ScriptedModel({ turns: [{ text: 'canned' }], modelId: 'stand-in' }),
    provider: 'demo',
    modelId: 'stand-in',
    source: 'nothing configured',
    demo: true,
    ...(description === undefined ? {} : { description }),
    close: async () => {
      state.closed = true;
    },
  };
  return { fallback: vi.fn(async () => model), state };
}

describe('resolveModel: a local server, else the fallback', () => {
  it('uses a local server that lists a model, taking --model first', async () => {
    server = await startModelsServer({ body: modelList('llama3.2') });
    const { fallback } = scriptedFallback();
    const options = { localBaseURL: server.baseURL, fallback };
    await expect(resolve({}, {}, options)).resolves.toEqual({
      provider: 'openai-compatible',
      modelId: 'llama3.2',
      source: `local server at ${server.baseURL}`,
      demo: false,
      adapter: 'openai',
    });
    await expect(resolve({ model: 'phi4' }, {}, options)).resolves.toMatchObject({ modelId: 'phi4' });
    expect(fallback).not.toHaveBeenCalled();
    // The environment points elsewhere: the local server configured there is probed instead.
    const elsewhere = await closedPortURL();
    await expect(resolve({}, { CAIRN_LOCAL_BASE_URL: elsewhere }, options)).resolves.toMatchObject({
      demo: true,
    });
    expect(fallback).toHaveBeenCalledOnce();
  });

  it('falls back when the local server is off, slow, failing or has no models', async () => {
    server = await startModelsServer({ body: modelList('llama3.2'), delayMs: 300 });
    const { fallback } = scriptedFallback();
    const standIn = { provider: 'demo', modelId: 'stand-in', source: 'nothing configured', demo: true };
    await expect(
      resolve({}, {}, { localBaseURL: server.baseURL, probeTimeoutMs: 30, fallback }),
    ).resolves.toMatchObject(standIn);
    await expect(
      resolve({}, { CAIRN_LOCAL_BASE_URL: 'off' }, { localBaseURL: server.baseURL, fallback }),
    ).resolves.toMatchObject(standIn);
    await server.close();
    server = await startModelsServer({ status: 500 });
    await expect(resolve({}, {}, { localBaseURL: server.baseURL, fallback })).resolves.toMatchObject(standIn);
    await server.close();
    server = await startModelsServer({ body: modelList() });
    await expect(resolve({}, {}, { localBaseURL: server.baseURL, fallback })).resolves.toMatchObject(standIn);
    expect(fallback).toHaveBeenCalledTimes(4);
  });

  it('gives the fallback only when nothing is configured, and hands it back as it is', async () => {
    const { fallback, state } = scriptedFallback();
    await expect(resolve({}, { ...NO_LOCAL, GEMINI_API_KEY: 'g' }, { fallback })).resolves.toMatchObject({
      provider: 'gemini',
    });
    await expect(
      failure(resolveModel({ provider: 'anthropic' }, NO_LOCAL, { fallback })),
    ).resolves.toMatchObject({ code: 'LLM_AUTH' });
    expect(fallback).not.toHaveBeenCalled();
    resolved = await resolveModel({}, NO_LOCAL, { fallback });
    expect(resolved).toBe(await fallback.mock.results[0]?.value);
    await resolved.close();
    expect(state.closed).toBe(true);
  });

  it('fails with LLM_AUTH and what to set when nothing is configured and there is no fallback', async () => {
    await expect(failure(resolveModel({}, NO_LOCAL))).resolves.toEqual({
      code: 'LLM_AUTH',
      message: 'no model configured: no API key, no base URL, no local server answering',
      fix: 'set OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY, or point --base-url or OPENAI_BASE_URL at an OpenAI-compatible server such as Ollama',
    });
    await expect(
      failure(resolveModel({}, NO_LOCAL, { names: { baseURL: 'CAIRN_BASE_URL' } })),
    ).resolves.toMatchObject({
      fix: 'set OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY, or point CAIRN_BASE_URL or OPENAI_BASE_URL at an OpenAI-compatible server such as Ollama',
    });
  });
});

describe('resolveModel: the names of the settings', () => {
  // How a server configured by environment variables would name its settings.
  const names = {
    provider: 'CAIRN_PROVIDER',
    model: 'CAIRN_MODEL',
    baseURL: 'OPENAI_BASE_URL',
    apiKey: 'CAIRN_API_KEY',
  };

  it('names the settings as the caller does, with "set" for what is not a flag', async () => {
    await expect(failure(resolveModel({ provider: 'anthropic' }, {}, { names }))).resolves.toEqual({
      code: 'LLM_AUTH',
      message: 'anthropic needs an API key',
      fix: 'set ANTHROPIC_API_KEY or CAIRN_API_KEY',
    });
    await expect(
      failure(resolveModel({ provider: 'openai-compatible' }, {}, { names })),
    ).resolves.toMatchObject({ fix: 'set OPENAI_BASE_URL (e.g. http://localhost:11434/v1)' });
    await expect(failure(resolveModel({ apiKey: 'k' }, {}, { names }))).resolves.toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'CAIRN_API_KEY needs a provider',
      fix: 'set CAIRN_PROVIDER to openai, anthropic or gemini, or OPENAI_BASE_URL to an OpenAI-compatible server',
    });
    await expect(failure(resolveModel({ baseURL: 'localhost:11434' }, {}, { names }))).resolves.toMatchObject(
      {
        message: 'OPENAI_BASE_URL is not an http(s) URL: localhost:11434',
      },
    );
    const baseURL = await closedPortURL();
    await expect(failure(resolveModel({ baseURL }, {}, { names }))).resolves.toMatchObject({
      fix: 'start the server, or fix OPENAI_BASE_URL',
    });
    server = await startModelsServer({ status: 404 });
    await expect(failure(resolveModel({ baseURL: server.baseURL }, {}, { names }))).resolves.toMatchObject({
      fix: 'set CAIRN_MODEL',
    });
    await expect(
      failure(resolveModel({ baseURL: 'http://user:secret@127.0.0.1:9/v1' }, {}, { names })),
    ).resolves.toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'OPENAI_BASE_URL has a user name or password in it (http://***@127.0.0.1:9/v1)',
      fix: 'remove them from the URL and pass the key with CAIRN_API_KEY or OPENAI_API_KEY',
    });
  });

  it("gives the base URL's own source, and the provider's name as the source of an explicit provider", async () => {
    server = await startModelsServer({ body: modelList('mistral') });
    await expect(
      resolve({ baseURL: server.baseURL }, { ANTHROPIC_API_KEY: 'a' }, { names }),
    ).resolves.toMatchObject({
      provider: 'openai-compatible',
      source: 'OPENAI_BASE_URL',
    });
    await expect(
      resolve({ provider: 'openai-compatible', baseURL: server.baseURL }, NO_LOCAL, { names }),
    ).resolves.toMatchObject({ source: 'CAIRN_PROVIDER' });
    // A base URL from elsewhere (a config file) ranks below the keys in the environment …
    const fromFile = { baseURL: server.baseURL, baseURLFrom: 'server.json' };
    await expect(resolve(fromFile, { ...NO_LOCAL, GEMINI_API_KEY: 'g' })).resolves.toMatchObject({
      provider: 'gemini',
    });
    // … and is named by where it came from.
    await expect(resolve(fromFile, NO_LOCAL)).resolves.toMatchObject({ source: 'server.json' });
    await expect(
      failure(resolveModel({ baseURL: 'ftp://x', baseURLFrom: 'server.json' }, NO_LOCAL)),
    ).resolves.toMatchObject({ message: 'server.json is not an http(s) URL: ftp://x' });
  });

  it("names an explicit provider's own source when the settings give it (an environment variable, /model)", async () => {
    const env = { ...NO_LOCAL, OPENAI_API_KEY: 'sk-o', ANTHROPIC_API_KEY: 'sk-a' };
    await expect(
      resolve({ provider: 'anthropic', providerFrom: 'CAIRN_PROVIDER' }, env),
    ).resolves.toMatchObject({ provider: 'anthropic', source: 'CAIRN_PROVIDER' });
    const switched = await resolveModel(
      { provider: 'gemini', providerFrom: '/model' },
      { GEMINI_API_KEY: 'g' },
    );
    expect(describeModel(switched)).toBe('model: gemini gemini-2.5-flash (from /model)');
    server = await startModelsServer({ body: modelList('qwen3') });
    await expect(
      resolve(
        { provider: 'openai-compatible', providerFrom: 'cairn.config.json', baseURL: server.baseURL },
        NO_LOCAL,
      ),
    ).resolves.toMatchObject({ modelId: 'qwen3', source: 'cairn.config.json' });
    const settings = { provider: 'mistral', providerFrom: 'CAIRN_PROVIDER' } as unknown as ModelSettings;
    await expect(failure(resolveModel(settings, {}))).resolves.toMatchObject({
      message: 'CAIRN_PROVIDER must be one of openai, anthropic, gemini, openai-compatible, got "mistral"',
    });
  });

  it('refuses a provider it does not know, as settings from plain JavaScript may name', async () => {
    const settings = { provider: 'mistral' } as unknown as ModelSettings;
    await expect(failure(resolveModel(settings, {}, { names }))).resolves.toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'CAIRN_PROVIDER must be one of openai, anthropic, gemini, openai-compatible, got "mistral"',
      fix: undefined,
    });
  });
});

describe('describeModel', () => {
  it('names the provider, the model and why, never the key', async () => {
    const model = await resolveModel({}, { ...NO_LOCAL, ANTHROPIC_API_KEY: 'sk-ant-secret' });
    expect(describeModel(model)).toBe('model: anthropic claude-sonnet-5-5 (from ANTHROPIC_API_KEY)');
  });

  it("says a scripted stand-in is not a language model, or gives the stand-in's own description", async () => {
    expect(describeModel(await scriptedFallback().fallback())).toBe(
      'model: demo stand-in (from nothing configured): scripted, not a language model',
    );
    expect(describeModel(await scriptedFallback('model: offline demo, a scripted tour').fallback())).toBe(
      'model: offline demo, a scripted tour',
    );
  });
});
