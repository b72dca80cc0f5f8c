// The Anthropic mock's public names, in one place so the package index needs one line for them.
export {
  type AnthropicMockOptions,
  anthropicMockProtocol,
  createAnthropicMockProtocol,
} from './anthropic-mock-server.js';
export {
  type AnthropicCacheUsage,
  type AnthropicPromptCache,
  type AnthropicPromptCacheOptions,
  createAnthropicPromptCache,
} from './anthropic-prompt-cache.js';
export { anthropicRequestProblem } from './anthropic-request-rules.js';
export { anthropicThinkingSignature } from './anthropic-thinking-signature.js';
