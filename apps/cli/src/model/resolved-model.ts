import type { ModelAdapter } from '@cairn/core';

export const PROVIDER_NAMES = ['openai', 'anthropic', 'gemini', 'openai-compatible'] as const;

export type ProviderName = (typeof PROVIDER_NAMES)[number];

export const isProviderName = (value: string): value is ProviderName =>
  (PROVIDER_NAMES as readonly string[]).includes(value);

/** What the user chose on the command line or in the config; every field is optional. */
export interface ModelSettings {
  provider?: ProviderName;
  model?: string;
  baseURL?: string;
  /** Where `baseURL` came from, for the start-up line (default `--base-url`). */
  baseURLFrom?: string;
  apiKey?: string;
}

/** The model a session talks to, and why this one. */
export interface ResolvedModel {
  adapter: ModelAdapter;
  provider: ProviderName | 'demo';
  modelId: string;
  /** Why this model: "--provider", "OPENAI_API_KEY", "OPENAI_BASE_URL", "local server at http://localhost:11434/v1", "no API key found" … */
  source: string;
  demo: boolean;
  /** Stops the demo server, if any. */
  close(): Promise<void>;
}
