/**
 * The request field that carries `settings.maxOutputTokens`. OpenAI deprecated `max_tokens`, and
 * its reasoning models refuse it; OpenAI-compatible servers (Ollama, llama.cpp, older vLLM) often
 * know only `max_tokens`.
 */
export type OpenAIMaxTokensParameter = 'max_completion_tokens' | 'max_tokens';

export interface OpenAIAdapterOptions {
  /** The model id sent with every request (`gpt-4.1`, or a compatible server's model name). */
  model: string;
  /** Default: the `OPENAI_API_KEY` environment variable, as the SDK reads it. */
  apiKey?: string;
  /**
   * The API root, ending in `/v1`: an OpenAI-compatible server such as Ollama
   * (`http://localhost:11434/v1`), vLLM or llama.cpp. Default: `OPENAI_BASE_URL` or OpenAI's API.
   */
  baseURL?: string;
  /** Headers sent with every request (a request's own `headers` are added on top). */
  headers?: Record<string, string>;
  /** Per-attempt time limit; default the SDK's (10 minutes). */
  timeoutMs?: number;
  /** Retries after a retryable failure (429, 5xx, network), honouring `Retry-After`. Default 2. */
  maxRetries?: number;
  organization?: string;
  /**
   * Default: `max_completion_tokens` when talking to api.openai.com, `max_tokens` for any other
   * server, since that is the field every OpenAI-compatible server understands.
   */
  maxTokensParameter?: OpenAIMaxTokensParameter;
}
