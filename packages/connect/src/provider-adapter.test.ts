import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProviderAdapter } from './provider-adapter.js';

/** The URL the adapter's first request goes to; the stubbed fetch answers 400 so nothing retries. */
async function requestedURL(provider: 'openai' | 'openai-compatible', baseURL?: string): Promise<string> {
  const fetch = vi.fn(async () => new Response('{"error":{"message":"stub"}}', { status: 400 }));
  vi.stubGlobal('fetch', fetch);
  const adapter = await createProviderAdapter(provider, {
    model: 'gpt-5-mini',
    apiKey: 'sk-test',
    ...(baseURL === undefined ? {} : { baseURL }),
  });
  await adapter.generate({ messages: [{ role: 'user', content: 'Hi' }] }).catch(() => undefined);
  return String((fetch.mock.calls[0] as unknown[] | undefined)?.[0]);
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('createProviderAdapter: which OpenAI API', () => {
  it('speaks the Responses API to api.openai.com, named or not', async () => {
    await expect(requestedURL('openai')).resolves.toBe('https://api.openai.com/v1/responses');
    await expect(requestedURL('openai', 'https://api.openai.com/v1')).resolves.toBe(
      'https://api.openai.com/v1/responses',
    );
  });

  it('speaks Chat Completions to any other server (OPENAI_BASE_URL, openai-compatible)', async () => {
    await expect(requestedURL('openai', 'http://localhost:8000/v1')).resolves.toBe(
      'http://localhost:8000/v1/chat/completions',
    );
    await expect(requestedURL('openai-compatible', 'http://localhost:11434/v1')).resolves.toBe(
      'http://localhost:11434/v1/chat/completions',
    );
  });
});
