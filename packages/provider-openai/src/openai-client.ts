import { assertSupportedParts, type ModelRequest } from '@cairn/core';
import { createAttemptSignal, requireApiKey } from '@cairn/provider-utils';
import OpenAI from 'openai';
import type { OpenAIAdapterOptions } from './openai-adapter-options.js';

const API_KEY_ENV = ['OPENAI_API_KEY'];

/** The SDK client both adapters (Chat Completions and Responses) call through. */
export function createOpenAIClient(
  options: Pick<OpenAIAdapterOptions, 'apiKey' | 'baseURL' | 'organization' | 'headers' | 'timeoutMs'>,
): OpenAI {
  return new OpenAI({
    apiKey: requireApiKey('openai', options.apiKey, API_KEY_ENV),
    baseURL: options.baseURL,
    organization: options.organization,
    defaultHeaders: options.headers,
    timeout: options.timeoutMs,
    // Retries are `withRetry`'s: it honours Retry-After and never replays a started stream.
    maxRetries: 0,
  });
}

/**
 * The client, created by the first request: the SDK refuses to exist without a key, which only a
 * call needs (so an adapter can be created before the key is set).
 */
export function lazyOpenAIClient(options: Parameters<typeof createOpenAIClient>[0]): () => OpenAI {
  let client: OpenAI | undefined;
  return () => {
    client ??= createOpenAIClient(options);
    return client;
  };
}

/** Refuses parts the model cannot take before anything is sent (`UNSUPPORTED_CONTENT`). */
export function assertOpenAIParts(
  request: ModelRequest,
  modelId: string,
  mediaTypes: readonly string[],
): void {
  assertSupportedParts(request.messages, { provider: 'openai', modelId, mediaTypes });
}

// Called once per attempt: each gets a signal of its own (the SDK never removes its listener).
export function callOptions(request: ModelRequest, signal: AbortSignal | undefined) {
  const attempt = createAttemptSignal(signal).signal;
  return {
    ...(attempt ? { signal: attempt } : {}),
    ...(request.headers ? { headers: request.headers } : {}),
  };
}
