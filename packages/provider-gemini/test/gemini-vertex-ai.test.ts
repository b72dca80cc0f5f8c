import type { AgentOutput } from '@cairn/core';
import { type MockProviderServer, startMockProviderServer } from '@cairn/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGeminiAdapter, type GeminiAdapterOptions } from '../src/index.js';

// Vertex AI through the real @google/genai SDK against the Gemini mock, which serves Vertex AI's
// paths too: express mode (an API key) and a project's Google credentials.

let server: MockProviderServer | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

const ask = { messages: [{ role: 'user' as const, content: 'Hi' }] };

/** A Google auth client as `googleAuthOptions.authClient` takes it, with a fixed access token. */
const authClient = {
  getRequestHeaders: async () => new Headers({ authorization: 'Bearer ya29.test-token' }),
} as unknown as NonNullable<NonNullable<GeminiAdapterOptions['googleAuthOptions']>['authClient']>;

async function drain(stream: AsyncIterable<AgentOutput>): Promise<void> {
  for await (const _ of stream) {
    // drain
  }
}

describe('createGeminiAdapter on Vertex AI', () => {
  it('calls Vertex AI with an API key in express mode', async () => {
    server = await startMockProviderServer({ provider: 'gemini', turns: [{ text: 'Hello from Vertex.' }] });
    const adapter = createGeminiAdapter({
      model: 'gemini-2.5-flash',
      vertexai: true,
      apiKey: 'vertex-key',
      baseURL: server.baseURL,
    });
    expect((await adapter.generate(ask)).message.content).toBe('Hello from Vertex.');
    expect(server.requests[0]).toMatchObject({
      path: '/v1beta1/publishers/google/models/gemini-2.5-flash:generateContent',
      headers: expect.objectContaining({ 'x-goog-api-key': 'vertex-key' }),
    });
  });

  it('calls a project’s endpoint with Google credentials, never with a key from the environment', async () => {
    vi.stubEnv('GEMINI_API_KEY', 'env-key');
    vi.stubEnv('GOOGLE_API_KEY', '');
    server = await startMockProviderServer({
      provider: 'gemini',
      turns: [{ text: 'Streamed from Vertex.' }],
    });
    const adapter = createGeminiAdapter({
      model: 'gemini-2.5-flash',
      vertexai: true,
      project: 'my-project',
      location: 'us-central1',
      googleAuthOptions: { authClient },
      baseURL: server.baseURL,
    });
    const stream = adapter.stream(ask);
    await drain(stream);
    expect((await stream.result).message.content).toBe('Streamed from Vertex.');
    const [request] = server.requests;
    expect(request).toMatchObject({
      path: '/v1beta1/projects/my-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:streamGenerateContent',
      headers: expect.objectContaining({ authorization: 'Bearer ya29.test-token' }),
    });
    expect(request?.url).toContain('alt=sse');
    expect(request?.headers).not.toHaveProperty('x-goog-api-key');
  });

  it('refuses settings that do not go together when the adapter is created', () => {
    const invalid = expect.objectContaining({ code: 'INVALID_ARGUMENT' });
    expect(() => createGeminiAdapter({ model: 'gemini-2.5-flash', project: 'p' })).toThrow(invalid);
    expect(() =>
      createGeminiAdapter({
        model: 'gemini-2.5-flash',
        vertexai: true,
        apiKey: 'k',
        project: 'p',
        location: 'l',
      }),
    ).toThrow(invalid);
  });
});
