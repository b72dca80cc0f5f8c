/** The providers a model can be resolved to; `openai-compatible` is any server speaking OpenAI's API. */
export const PROVIDER_NAMES = ['openai', 'anthropic', 'gemini', 'openai-compatible'] as const;

export type ProviderName = (typeof PROVIDER_NAMES)[number];

export const isProviderName = (value: string): value is ProviderName =>
  (PROVIDER_NAMES as readonly string[]).includes(value);
