import type { ModelRequest } from '@cairn/core';
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

// Called once per attempt: each gets a signal of its own (the SDK never removes its listener).
export function callOptions(request: ModelRequest, signal: AbortSignal | undefined) {
  const attempt = createAttemptSignal(signal).signal;
  return {
    ...(attempt ? { signal: attempt } : {}),
    ...(request.headers ? { headers: request.headers } : {}),
  };
}
