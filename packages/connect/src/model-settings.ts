import type { ProviderName } from './provider-names.js';

/** What the user chose (flags, environment, a config file); every field is optional. */
export interface ModelSettings {
  provider?: ProviderName;
  model?: string;
  baseURL?: string;
  /**
   * Where `baseURL` came from, for errors and the start-up line. Absent (or equal to the
   * `baseURL` setting name): given directly, so it beats the API keys in the environment; any
   * other source, such as a config file, ranks below them.
   */
  baseURLFrom?: string;
  apiKey?: string;
}
