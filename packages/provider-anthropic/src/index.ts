export { createAnthropicAdapter } from './anthropic-adapter.js';
export { type AnthropicAdapterOptions, DEFAULT_MAX_OUTPUT_TOKENS } from './anthropic-adapter-options.js';
export type { AnthropicProviderOptions } from './anthropic-provider-options.js';
export { INVALID_TOOL_ARGUMENTS_KEY } from './anthropic-tool-input.js';
export { LEADING_USER_TEXT } from './convert-to-anthropic-messages.js';
