import {
  assertIntegerOption,
  type ModelAdapterOptions,
  resolveModelAdapterOptions,
} from '@cairn/provider-utils';

export interface AnthropicAdapterOptions extends ModelAdapterOptions {
  /** `max_tokens` when the request's settings give none: Anthropic requires one. Default 4096. */
  maxOutputTokens?: number;
}

export const DEFAULT_MAX_OUTPUT_TOKENS = 4096;

/** The options with defaults applied; throws `INVALID_ARGUMENT` for a value the API would refuse later. */
export function resolveAnthropicAdapterOptions(
  options: AnthropicAdapterOptions,
): AnthropicAdapterOptions & { maxRetries: number; maxOutputTokens: number } {
  const resolved = resolveModelAdapterOptions('anthropic', options);
  const maxOutputTokens = options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
  assertIntegerOption('maxOutputTokens', maxOutputTokens, 1);
  return { ...resolved, maxOutputTokens };
}
