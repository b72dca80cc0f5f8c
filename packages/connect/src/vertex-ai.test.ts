import type { GeminiAdapterOptions } from '@cairn/provider-gemini';
import { type MockProviderServer, startMockProviderServer } from '@cairn/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { describeModel } from './describe-model.js';
import type { ModelSettings } from './model-settings.js';
import { createProviderAdapter } from './provider-adapter.js';
import { resolveModel } from './resolve-model.js';
import { failure } from './test-support.js';

// The options each Gemini adapter is created with; the adapter itself is the real one.
const created = vi.hoisted((): GeminiAdapterOptions[] => []);
vi.mock('@cairn/provider-gemini', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@cairn/provider-gemini')>();
  return {
    ...actual,
    createGeminiAdapter: (options: GeminiAdapterOptions) => {
      created.push(options);
      return actual.createGeminiAdapter(options);
    },
  };
});

// No local server is probed.
const NO_LOCAL = { CAIRN_LOCAL_BASE_URL: 'off' };
const VERTEX = { ...NO_LOCAL, GOOGLE_GENAI_USE_VERTEXAI: 'true' };
const ADC = { ...VERTEX, GOOGLE_CLOUD_PROJECT: 'my-project', GOOGLE_CLOUD_LOCATION: 'us-central1' };

let server: MockProviderServer | undefined;
beforeEach(() => {
  created.length = 0;
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** What resolving gives: the start-up line and the options the Gemini adapter got. */
async function resolve(settings: ModelSettings, env: NodeJS.ProcessEnv) {
  const model = await resolveModel(settings, env);
  return { line: describeModel(model), options: created.at(-1) };
}

describe('Gemini on Vertex AI from the @google/genai environment', () => {
  it('takes the project and location with Google credentials, never a key from the environment', async () => {
    const env = { ...ADC, GEMINI_API_KEY: 'ai-studio-key', GOOGLE_API_KEY: 'vertex-key' };
    await expect(resolve({ provider: 'gemini' }, env)).resolves.toEqual({
      line: 'model: gemini gemini-2.5-flash (from --provider, on Vertex AI)',
      options: {
        model: 'gemini-2.5-flash',
        vertexai: true,
        project: 'my-project',
        location: 'us-central1',
      },
    });
  });

  it('is found in the environment without a provider, a project being enough', async () => {
    const env = { ...NO_LOCAL, GOOGLE_GENAI_USE_VERTEXAI: 'True', GOOGLE_CLOUD_PROJECT: 'p' };
    await expect(resolve({ model: 'gemini-2.5-pro' }, env)).resolves.toEqual({
      line: 'model: gemini gemini-2.5-pro (from GOOGLE_GENAI_USE_VERTEXAI)',
      options: { model: 'gemini-2.5-pro', vertexai: true, project: 'p' },
    });
  });

  it('uses express mode with GOOGLE_API_KEY (then GEMINI_API_KEY) when no project or location is set', async () => {
    await expect(
      resolve({}, { ...VERTEX, GEMINI_API_KEY: 'ai-studio-key', GOOGLE_API_KEY: 'vertex-key' }),
    ).resolves.toEqual({
      line: 'model: gemini gemini-2.5-flash (from GOOGLE_GENAI_USE_VERTEXAI)',
      options: { model: 'gemini-2.5-flash', vertexai: true, apiKey: 'vertex-key' },
    });
    await expect(resolve({ provider: 'gemini' }, { ...VERTEX, GEMINI_API_KEY: 'k' })).resolves.toMatchObject({
      options: { model: 'gemini-2.5-flash', vertexai: true, apiKey: 'k' },
    });
  });

  it('calls Vertex AI in express mode through the real SDK', async () => {
    server = await startMockProviderServer({ provider: 'gemini', turns: [{ text: 'Hello from Vertex.' }] });
    const model = await resolveModel(
      { provider: 'gemini', baseURL: server.baseURL },
      { ...VERTEX, GOOGLE_API_KEY: 'vertex-key' },
    );
    const result = await model.adapter.generate({ messages: [{ role: 'user', content: 'Hi' }] });
    expect(result.message.content).toBe('Hello from Vertex.');
    expect(server.requests.at(-1)).toMatchObject({
      path: '/v1beta1/publishers/google/models/gemini-2.5-flash:generateContent',
      headers: expect.objectContaining({ 'x-goog-api-key': 'vertex-key' }),
    });
  });

  it('lets a key given directly beat the environment’s project (express mode), as the SDK does', async () => {
    await expect(resolve({ provider: 'gemini', apiKey: 'flag-key' }, ADC)).resolves.toMatchObject({
      options: { model: 'gemini-2.5-flash', vertexai: true, apiKey: 'flag-key' },
    });
    expect(created.at(-1)).not.toHaveProperty('project');
  });

  it('keeps OpenAI’s and Anthropic’s keys first when no provider is named', async () => {
    const model = await resolveModel({}, { ...ADC, ANTHROPIC_API_KEY: 'a' });
    expect(describeModel(model)).toBe('model: anthropic claude-sonnet-5-5 (from ANTHROPIC_API_KEY)');
    expect(created).toEqual([]);
  });

  it('stays on the Gemini API unless GOOGLE_GENAI_USE_VERTEXAI is true', async () => {
    for (const flag of ['false', '1', '']) {
      await expect(
        resolve(
          {},
          { ...NO_LOCAL, GOOGLE_GENAI_USE_VERTEXAI: flag, GOOGLE_CLOUD_PROJECT: 'p', GEMINI_API_KEY: 'k' },
        ),
      ).resolves.toEqual({
        line: 'model: gemini gemini-2.5-flash (from GEMINI_API_KEY)',
        options: { model: 'gemini-2.5-flash', apiKey: 'k' },
      });
    }
  });

  it('says what to set when Vertex AI has neither credentials nor a key', async () => {
    await expect(failure(resolveModel({ provider: 'gemini' }, VERTEX))).resolves.toEqual({
      code: 'LLM_AUTH',
      message: 'gemini on Vertex AI needs Google credentials or an API key',
      fix: 'set GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION (Application Default Credentials), or set GOOGLE_API_KEY or GEMINI_API_KEY or pass --api-key (express mode)',
    });
    // Found in the environment with nothing to authorise it, it is not Vertex AI's turn.
    await expect(failure(resolveModel({}, VERTEX))).resolves.toMatchObject({
      code: 'LLM_AUTH',
      message: 'no model configured: no API key, no base URL, no local server answering',
    });
  });
});

describe('createProviderAdapter: keys and Vertex AI', () => {
  it('refuses a connection without a key, but Vertex AI with a project or location', async () => {
    const invalid = expect.objectContaining({ code: 'INVALID_ARGUMENT' });
    await expect(createProviderAdapter('anthropic', { model: 'm' })).rejects.toEqual(invalid);
    await expect(createProviderAdapter('gemini', { model: 'm', vertexAI: {} })).rejects.toEqual(invalid);
    await expect(
      createProviderAdapter('gemini', { model: 'm', vertexAI: { location: 'global' } }),
    ).resolves.toMatchObject({ provider: 'gemini' });
    expect(created.at(-1)).toEqual({ model: 'm', vertexai: true, location: 'global' });
  });
});
