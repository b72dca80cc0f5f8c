import type { ModelAdapterOptions } from '@cairn/provider-utils';

/**
 * The request field that carries `settings.maxOutputTokens`. OpenAI deprecated `max_tokens`, and
 * its reasoning models refuse it; OpenAI-compatible servers (Ollama, llama.cpp, older vLLM) often
 * know only `max_tokens`.
 */
export type OpenAIMaxTokensParameter = 'max_completion_tokens' | 'max_tokens';

export interface OpenAIAdapterOptions extends ModelAdapterOptions {
  /**
   * The API root, ending in `/v1`: an OpenAI-compatible server such as Ollama
   * (`http://localhost:11434/v1`), vLLM or llama.cpp. Default: `OPENAI_BASE_URL` or OpenAI's API.
   */
  baseURL?: string;
  organization?: string;
  /**
   * Default: `max_completion_tokens` when talking to api.openai.com, `max_tokens` for any other
   * server, since that is the field every OpenAI-compatible server understands.
   */
  maxTokensParameter?: OpenAIMaxTokensParameter;
  /**
   * Media types of the image and file parts the model takes (`image/*` for any image,
   * `application/pdf`); `[]` for text only. Default: images and PDFs for OpenAI's vision models
   * (GPT-4o, GPT-4.1, GPT-5, o1, o3, o4 families), text only for any other model id — declare what
   * a compatible server's model takes (`['image/png', 'image/jpeg']` for a vision model on Ollama).
   */
  inputMediaTypes?: readonly string[];
}
