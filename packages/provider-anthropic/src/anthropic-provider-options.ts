import type { ThinkingConfigParam } from '@anthropic-ai/sdk/resources/messages';
import { CairnError, definedFields, type ModelRequest } from '@cairn/core';
import { type AnthropicStructuredOutputMode, parseStructuredOutputMode } from './anthropic-output-tool.js';
import { type AnthropicPromptCachingOption, parsePromptCaching } from './anthropic-prompt-caching.js';

/** What a request may set under `providerOptions.anthropic`. */
export interface AnthropicProviderOptions {
  /** Extended thinking, sent as is: `{ type: 'enabled', budget_tokens: 2048 }`, `{ type: 'adaptive' }`, … */
  thinking?: ThinkingConfigParam;
  /** Prompt caching for this request, over the adapter's `promptCaching` (`false`: none). */
  promptCaching?: AnthropicPromptCachingOption;
  /** How `request.output` is asked for, over the adapter's `structuredOutput`. */
  structuredOutput?: AnthropicStructuredOutputMode;
}

/** The request's `providerOptions.anthropic`, checked; other providers' namespaces are ignored. */
export function parseAnthropicProviderOptions(request: ModelRequest): AnthropicProviderOptions {
  const options = request.providerOptions?.anthropic;
  if (options === undefined) return {};
  const promptCaching = parsePromptCaching(options.promptCaching, 'providerOptions.anthropic.promptCaching');
  const structuredOutput = parseStructuredOutputMode(
    options.structuredOutput,
    'providerOptions.anthropic.structuredOutput',
  );
  const caching = definedFields({ promptCaching, structuredOutput });
  const { thinking } = options;
  if (thinking === undefined) return caching;
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
  return { ...caching, thinking: thinking as unknown as ThinkingConfigParam };
}
