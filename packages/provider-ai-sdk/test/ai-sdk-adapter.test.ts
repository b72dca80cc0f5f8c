import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { startMockProviderServer } from '@cairn/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createAiSdkAdapter } from '../src/index.js';

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function mock(turns: Parameters<typeof startMockProviderServer>[0]['turns']) {
  const server = await startMockProviderServer({ provider: 'openai', turns });
  servers.push(server);
  const provider = createOpenAICompatible({
    name: 'mock',
    baseURL: server.baseURL,
    apiKey: 'sk-test',
    includeUsage: true,
    supportsStructuredOutputs: true,
  });
  return { server, model: provider.chatModel('gpt-test') };
}

describe('createAiSdkAdapter', () => {
  it("names itself after the model's provider, and takes another name", async () => {
    const { model } = await mock([]);
    expect(createAiSdkAdapter(model)).toMatchObject({ provider: 'mock.chat', modelId: 'gpt-test' });
    expect(
      createAiSdkAdapter(model, { provider: 'acme', capabilities: { inputMediaTypes: [] } }),
    ).toMatchObject({
      provider: 'acme',
      capabilities: { streaming: true, toolCalls: true, structuredOutput: true, inputMediaTypes: [] },
    });
  });

  it('refuses a model of a specification version it does not know (AI SDK 4 models are v1)', () => {
    const v1 = {
      specificationVersion: 'v1',
      provider: 'old',
      modelId: 'm',
      doGenerate: async () => ({}),
      doStream: async () => ({}),
    };
    expect(() => createAiSdkAdapter(v1 as never)).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', details: { specificationVersion: 'v1' } }),
    );
  });

  it('sends settings, structured output and providerOptions on the wire, and returns the JSON as text', async () => {
    const { server, model } = await mock([{ text: '{"color":"red"}' }]);
    const adapter = createAiSdkAdapter(model, { providerOptions: { mock: { user: 'cairn-test' } } });
    const result = await adapter.generate({
      messages: [{ role: 'user', content: 'A colour?' }],
      output: {
        type: 'json',
        name: 'colour',
        schema: {
          type: 'object',
          properties: { color: { type: 'string' } },
          required: ['color'],
          additionalProperties: false,
        },
      },
      settings: { maxOutputTokens: 50, temperature: 0, seed: 3, stopSequences: ['END'] },
      providerOptions: { mock: { reasoningEffort: 'low' } },
    });
    expect(result.message.content).toBe('{"color":"red"}');
    expect(server.requests[0]?.body).toMatchObject({
      model: 'gpt-test',
      max_tokens: 50,
      temperature: 0,
      seed: 3,
      stop: ['END'],
      reasoning_effort: 'low',
      response_format: { type: 'json_schema', json_schema: { name: 'colour' } },
    });
  });

  it('an image is refused before anything is sent when the model is declared text only', async () => {
    const { server, model } = await mock([{ text: 'never' }]);
    const adapter = createAiSdkAdapter(model, { capabilities: { inputMediaTypes: [] } });
    const image = {
      type: 'image' as const,
      mediaType: 'image/png',
      source: { type: 'url' as const, url: 'https://example.com/dot.png' },
    };
    await expect(adapter.generate({ messages: [{ role: 'user', content: [image] }] })).rejects.toMatchObject({
      code: 'UNSUPPORTED_CONTENT',
    });
    expect(server.requests).toHaveLength(0);
  });

  it("retries a 503 by Cairn's policy alone: maxRetries 1 makes exactly two requests", async () => {
    const { server, model } = await mock([
      { fault: { status: 503 } },
      { fault: { status: 503 } },
      { text: 'late' },
    ]);
    const adapter = createAiSdkAdapter(model, { maxRetries: 1 });
    await expect(adapter.generate({ messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({
      code: 'LLM_UNAVAILABLE',
    });
    expect(server.requests).toHaveLength(2);
  });
});
