import { CairnError } from '@cairn/core';

/**
 * The API key an adapter sends: the `apiKey` option, else the first of the provider's environment
 * variables that is set. An empty string counts as none (an unset variable in a `.env` file).
 */
export function readApiKey(apiKey: string | undefined, envVars: readonly string[]): string | undefined {
  if (apiKey !== undefined && apiKey !== '') return apiKey;
  for (const name of envVars) {
    const value = process.env[name];
    if (value !== undefined && value !== '') return value;
  }
  return undefined;
}

/**
 * `LLM_AUTH` for a request made without an API key, naming what to set. Adapters read the key when
 * a request is made, not when they are created, as the AI SDK does: an application can build its
 * adapters before the key is known, and a test that never calls one needs none.
 */
export function missingApiKeyError(
  provider: string,
  envVars: readonly string[],
  cause?: unknown,
): CairnError {
  const variables = envVars.join(' or ');
  return new CairnError('LLM_AUTH', `${provider}: no API key; pass \`apiKey\` or set ${variables}`, {
    details: { provider, envVars: [...envVars] },
    cause,
  });
}

/** `readApiKey`, throwing `missingApiKeyError` when there is none. */
export function requireApiKey(
  provider: string,
  apiKey: string | undefined,
  envVars: readonly string[],
): string {
  const key = readApiKey(apiKey, envVars);
  if (key === undefined) throw missingApiKeyError(provider, envVars);
  return key;
}
