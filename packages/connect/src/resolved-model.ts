import type { ModelAdapter } from '@cairn/core';
import type { ProviderName } from './provider-names.js';

/** The model a session talks to, and why this one. */
export interface ResolvedModel {
  adapter: ModelAdapter;
  /** The provider; `demo` is a scripted stand-in that a `fallback` may give (then `demo` is true). */
  provider: ProviderName | 'demo';
  modelId: string;
  /** Why this model: "--provider", "CAIRN_PROVIDER", "/model", "OPENAI_API_KEY", "OPENAI_BASE_URL", "local server at http://localhost:11434/v1" … */
  source: string;
  /** A scripted stand-in, not a language model: its answers are canned. */
  demo: boolean;
  /** What `describeModel` says instead of its usual line, e.g. a demo's banner. */
  description?: string;
  /** Releases what the model holds (a demo's server, say); nothing for a provider's model. */
  close(): Promise<void>;
}
