import { nonBlank } from './non-blank.js';

/** The environment variables holding a provider's key, in the order they are looked for. */
export const API_KEY_VARIABLES = [
  ['OPENAI_API_KEY', 'openai'],
  ['ANTHROPIC_API_KEY', 'anthropic'],
  ['GEMINI_API_KEY', 'gemini'],
  ['GOOGLE_API_KEY', 'gemini'],
] as const;

/** A provider with a key of its own (not `openai-compatible`). */
export type KeyedProvider = (typeof API_KEY_VARIABLES)[number][1];

/** The keys set in `env`, in lookup order, each with its variable and provider. */
export function apiKeysIn(env: NodeJS.ProcessEnv) {
  return API_KEY_VARIABLES.flatMap(([variable, provider]) => {
    const key = nonBlank(env[variable]);
    return key === undefined ? [] : [{ variable, provider, key }];
  });
}

/** The variables that may hold `provider`'s key. */
export const keyVariablesOf = (provider: KeyedProvider): string[] =>
  API_KEY_VARIABLES.filter(([, owner]) => owner === provider).map(([variable]) => variable);
