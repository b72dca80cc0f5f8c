import { CairnError } from '@cairn/core';

/** The connection options every Cairn model adapter takes; each adds its provider's own. */
export interface ModelAdapterOptions {
  /** The model to call (`gpt-4.1`, `claude-sonnet-4-5`, `gemini-2.5-flash`, a compatible server's name). */
  model: string;
  /**
   * Default: the provider's environment variable (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`,
   * `GEMINI_API_KEY` or `GOOGLE_API_KEY`).
   */
  apiKey?: string;
  /** The API root: a proxy, an OpenAI-compatible server, a mock server. Default: the provider's. */
  baseURL?: string;
  /** Headers sent with every request (a request's own `headers` are added on top). */
  headers?: Record<string, string>;
  /** Time limit of one attempt (each retry gets its own): `LLM_TIMEOUT` when it passes. */
  timeoutMs?: number;
  /** Retries of a retryable failure (429, 5xx, network), honouring `Retry-After`. Default 2. */
  maxRetries?: number;
}

export const DEFAULT_MAX_RETRIES = 2;

/** Throws `INVALID_ARGUMENT` unless `value` is a safe integer of at least `min`. */
export function assertIntegerOption(name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new CairnError('INVALID_ARGUMENT', `${name} must be an integer ≥ ${min}, got ${String(value)}`);
  }
}

/**
 * The options with `maxRetries` defaulted, checked when the adapter is created rather than
 * when the first request fails: `INVALID_ARGUMENT` for an empty model or a bad number.
 */
export function resolveModelAdapterOptions<T extends ModelAdapterOptions>(
  provider: string,
  options: T,
): T & { maxRetries: number } {
  if (typeof options?.model !== 'string' || options.model.length === 0) {
    throw new CairnError('INVALID_ARGUMENT', `${provider}: model must be a non-empty string`);
  }
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  assertIntegerOption('maxRetries', maxRetries, 0);
  if (options.timeoutMs !== undefined) assertIntegerOption('timeoutMs', options.timeoutMs, 1);
  return { ...options, maxRetries };
}
