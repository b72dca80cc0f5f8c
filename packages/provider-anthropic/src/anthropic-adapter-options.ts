import {
  assertIntegerOption,
  type ModelAdapterOptions,
  resolveModelAdapterOptions,
} from '@cairn/provider-utils';
import { type AnthropicStructuredOutputMode, parseStructuredOutputMode } from './anthropic-output-tool.js';
import { type AnthropicPromptCachingOption, parsePromptCaching } from './anthropic-prompt-caching.js';

export interface AnthropicAdapterOptions extends ModelAdapterOptions {
  /** `max_tokens` when the request's settings give none: Anthropic requires one. Default 4096. */
  maxOutputTokens?: number;
  /**
   * `cache_control` breakpoints on the tools, the system prompt and the last user turns (the
   * default, `{}`), adjusted by an object, or `false` for none. A request's
   * `providerOptions.anthropic.promptCaching` overrides it.
   */
  promptCaching?: AnthropicPromptCachingOption;
  /**
   * How `request.output` is asked for: `native` (default) sends `output_config.format`; `tool`
   * forces a tool whose input schema is the output schema, for models without structured outputs.
   * Either way the answer is the message's text.
   */
  structuredOutput?: AnthropicStructuredOutputMode;
}

export const DEFAULT_MAX_OUTPUT_TOKENS = 4096;

/** The options with defaults applied; throws `INVALID_ARGUMENT` for a value the API would refuse later. */
export function resolveAnthropicAdapterOptions(options: AnthropicAdapterOptions): AnthropicAdapterOptions & {
  maxRetries: number;
  maxOutputTokens: number;
  promptCaching: AnthropicPromptCachingOption;
} {
  const resolved = resolveModelAdapterOptions('anthropic', options);
  const maxOutputTokens = options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
  assertIntegerOption('maxOutputTokens', maxOutputTokens, 1);
  const promptCaching = parsePromptCaching(options.promptCaching, 'promptCaching') ?? {};
  parseStructuredOutputMode(options.structuredOutput, 'structuredOutput');
  return { ...resolved, maxOutputTokens, promptCaching };
}
