import type { ThinkingConfigParam } from '@anthropic-ai/sdk/resources/messages';
import { CairnError, type ModelRequest } from '@cairn/core';

/** What a request may set under `providerOptions.anthropic`. */
export interface AnthropicProviderOptions {
  /** Extended thinking, sent as is: `{ type: 'enabled', budget_tokens: 2048 }`, `{ type: 'adaptive' }`, … */
  thinking?: ThinkingConfigParam;
}

/** The request's `providerOptions.anthropic`, checked; other providers' namespaces are ignored. */
export function parseAnthropicProviderOptions(request: ModelRequest): AnthropicProviderOptions {
  const options = request.providerOptions?.anthropic;
  if (options === undefined) return {};
  const { thinking } = options;
  if (thinking === undefined) return {};
  if (
    typeof thinking !== 'object' ||
    thinking === null ||
    Array.isArray(thinking) ||
    typeof thinking.type !== 'string'
  ) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      'providerOptions.anthropic.thinking must be an object with a type, e.g. { type: "enabled", budget_tokens: 2048 }',
    );
  }
  // The API checks the rest (budget against max_tokens, the model's support), and its types evolve.
  return { thinking: thinking as unknown as ThinkingConfigParam };
}
