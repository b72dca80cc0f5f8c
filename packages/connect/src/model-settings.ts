import type { ProviderName } from './provider-names.js';

/** What the user chose (flags, environment, a config file); every field is optional. */
export interface ModelSettings {
  provider?: ProviderName | undefined;
  /**
   * Where `provider` came from, as the start-up line names the model's source: `CAIRN_PROVIDER`,
   * a config file, a chat's `/model`. Absent: the `provider` setting name (`--provider`).
   */
  providerFrom?: string | undefined;
  model?: string | undefined;
  baseURL?: string | undefined;
  /**
   * Where `baseURL` came from, for errors and the start-up line. Absent (or equal to the
   * `baseURL` setting name): given directly, so it beats the API keys in the environment; any
   * other source, such as a config file, ranks below them.
   */
  baseURLFrom?: string | undefined;
  apiKey?: string | undefined;
}
