import { CairnError } from '@cairn/core';

export interface AnthropicAdapterOptions {
  /** The model to call (`claude-sonnet-4-5`, …). */
  model: string;
  /** Defaults to the `ANTHROPIC_API_KEY` environment variable (read by the SDK). */
  apiKey?: string;
  /** The API host, e.g. a proxy or a mock server. Defaults to the SDK's (`https://api.anthropic.com`). */
  baseURL?: string;
  /** Extra HTTP headers sent with every request (`anthropic-beta`, a proxy's auth, …). */
  headers?: Record<string, string>;
  /** Time limit of one HTTP request (each retry gets its own). Default: the SDK's 10 minutes. */
  timeoutMs?: number;
  /** Retries of a retryable failure (429, 5xx, 529, network) before the call fails. Default 2. */
  maxRetries?: number;
  /** `max_tokens` when the request's settings give none: Anthropic requires one. Default 4096. */
  maxOutputTokens?: number;
}

export const DEFAULT_MAX_OUTPUT_TOKENS = 4096;
export const DEFAULT_MAX_RETRIES = 2;

/** The options with defaults applied; throws `INVALID_ARGUMENT` for a value the API would refuse later. */
export function resolveAnthropicAdapterOptions(
  options: AnthropicAdapterOptions,
): AnthropicAdapterOptions & { maxRetries: number; maxOutputTokens: number } {
  if (typeof options.model !== 'string' || options.model.length === 0) {
    throw new CairnError('INVALID_ARGUMENT', 'model must be a non-empty string');
  }
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const maxOutputTokens = options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
  assertInteger('maxRetries', maxRetries, 0);
  assertInteger('maxOutputTokens', maxOutputTokens, 1);
  if (options.timeoutMs !== undefined) assertInteger('timeoutMs', options.timeoutMs, 1);
  return { ...options, maxRetries, maxOutputTokens };
}

function assertInteger(name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new CairnError('INVALID_ARGUMENT', `${name} must be an integer ≥ ${min}, got ${String(value)}`);
  }
}
