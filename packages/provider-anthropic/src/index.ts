export { createAnthropicAdapter } from './anthropic-adapter.js';
export { type AnthropicAdapterOptions, DEFAULT_MAX_OUTPUT_TOKENS } from './anthropic-adapter-options.js';
export type { AnthropicStructuredOutputMode } from './anthropic-output-tool.js';
export {
  type AnthropicPromptCaching,
  type AnthropicPromptCachingOption,
  MAX_CACHE_BREAKPOINTS,
} from './anthropic-prompt-caching.js';
export type { AnthropicProviderOptions } from './anthropic-provider-options.js';
export { INVALID_TOOL_ARGUMENTS_KEY } from './anthropic-tool-input.js';
export { LEADING_USER_TEXT } from './convert-to-anthropic-messages.js';
export { ANTHROPIC_INPUT_MEDIA_TYPES } from './to-anthropic-content-blocks.js';
