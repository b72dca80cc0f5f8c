import {
  isProviderName,
  type ModelSettings,
  PROVIDER_NAMES,
  type ProviderName,
  type ResolvedModel,
  resolveModel,
} from '@cairn/connect';
import { CairnError, definedFields } from '@cairn/core';
import { closestWord } from '../cli/closest-word.js';
import { cliFailure } from '../cli-error.js';
import type { CliSession } from '../session/open-session.js';

/** What `/model <argument>` asks for: a provider and one of its models (absent: its default). */
export interface ModelTarget {
  provider: ProviderName;
  model?: string;
}

/** The model's source after a switch, as the `/model` line names it. */
export const MODEL_SWITCH_SOURCE = '/model';

const EXAMPLE = `/model anthropic, /model gemini:gemini-2.5-flash — providers: ${PROVIDER_NAMES.join(', ')}`;

/**
 * Reads `/model`'s argument: `provider:id`, `provider` (its default model), or `id` (another model
 * of the current provider). The id may hold colons itself (`openai:ft:gpt-4.1-mini:acme::x`). A
 * `name:id` whose name is no provider is refused, except on an OpenAI-compatible server, where
 * ids carry tags (`qwen3:8b`); so is a bare word that is a typo of a provider's name (`antropic`).
 */
export function parseModelTarget(argument: string, current: ResolvedModel): ModelTarget {
  const text = argument.trim();
  const colon = text.indexOf(':');
  const name = colon === -1 ? text : text.slice(0, colon);
  if (isProviderName(name)) {
    const model = colon === -1 ? '' : text.slice(colon + 1).trim();
    return model === '' ? { provider: name } : { provider: name, model };
  }
  if (colon !== -1 && current.provider !== 'openai-compatible') {
    throw cliFailure('INVALID_ARGUMENT', `unknown provider "${name}"`, `name one: ${EXAMPLE}`);
  }
  // A word one or two letters from a provider's name is a typo of it, not a model id.
  const meant = colon === -1 ? closestWord(name, PROVIDER_NAMES) : undefined;
  if (meant !== undefined) {
    throw cliFailure('INVALID_ARGUMENT', `unknown provider "${name}"`, `did you mean ${meant}? ${EXAMPLE}`);
  }
  if (current.provider === 'demo') {
    throw cliFailure(
      'INVALID_ARGUMENT',
      'the offline demo has no other models',
      `name a provider: ${EXAMPLE}`,
    );
  }
  return { provider: current.provider, model: text };
}

/**
 * The model `/model` switches to, labelled as coming from `/model`. The session's own provider
 * without an id is the session's model again. The session's key and base URL go with its own
 * provider, never to another one, which takes its key from the environment. A failure (no key, an
 * unreachable server) keeps its fix and says the chat goes on with the current model.
 */
export async function switchModel(
  target: ModelTarget,
  session: Pick<CliSession, 'model' | 'settings'>,
  current: ResolvedModel,
  env: NodeJS.ProcessEnv,
): Promise<ResolvedModel> {
  const own = target.provider === session.model.provider;
  if (own && target.model === undefined) return session.model;
  const { apiKey, baseURL, baseURLFrom } = session.settings.model;
  const settings: ModelSettings = {
    provider: target.provider,
    providerFrom: MODEL_SWITCH_SOURCE,
    ...definedFields({ model: target.model }),
    ...(own && apiKey !== undefined ? { apiKey } : {}),
    ...(own && baseURL !== undefined ? { baseURL, ...definedFields({ baseURLFrom }) } : {}),
  };
  try {
    return await resolveModel(settings, env);
  } catch (error) {
    if (!CairnError.is(error)) throw error;
    const fix = typeof error.details?.fix === 'string' ? `${error.details.fix}; ` : '';
    const stays = `the chat stays on ${current.provider} ${current.modelId}`;
    throw new CairnError(error.code, error.message, {
      cause: error,
      details: { ...error.details, fix: `${fix}${stays}` },
    });
  }
}
