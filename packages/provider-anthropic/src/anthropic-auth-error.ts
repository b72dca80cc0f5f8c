import { CairnError } from '@cairn/core';
import { missingApiKeyError } from '@cairn/provider-utils';

const ANTHROPIC_API_KEY_ENV = ['ANTHROPIC_API_KEY'];

// The SDK's refusal, before sending anything, of a request for which it found no credentials.
const NO_CREDENTIALS = 'Could not resolve authentication method';

/**
 * Rethrows the SDK's own missing-credentials refusal as `LLM_AUTH` naming the variable to set
 * (otherwise it would be classified as a bad response), any other error unchanged. The SDK, not
 * the adapter, decides that no credentials exist: it also finds an `ANTHROPIC_AUTH_TOKEN` or a
 * credentials profile. Used on each attempt, before retries classify what it threw.
 */
export function rethrowAuthError(error: unknown): never {
  if (error instanceof Error && !CairnError.is(error) && error.message.startsWith(NO_CREDENTIALS)) {
    throw missingApiKeyError('anthropic', ANTHROPIC_API_KEY_ENV, error);
  }
  throw error;
}
