export interface GeminiAdapterOptions {
  /** The model name, such as `gemini-2.5-flash` (a `models/…` or `tunedModels/…` path works too). */
  model: string;
  /** Default: the `GEMINI_API_KEY` or else the `GOOGLE_API_KEY` environment variable. */
  apiKey?: string;
  /** The API's origin, without the version. Default `https://generativelanguage.googleapis.com`. */
  baseURL?: string;
  /** The API version in the path. Default `v1beta` (thought parts and signatures need it). */
  apiVersion?: string;
  /** Extra HTTP headers on every request. */
  headers?: Record<string, string>;
  /** Abort an attempt (the whole response, a stream included) after this long: `LLM_TIMEOUT`. */
  timeoutMs?: number;
  /** Retries of a retryable failure (429, 5xx, network) before giving up. Default 2. */
  maxRetries?: number;
}
