export { createOpenAIAdapter } from './openai-adapter.js';
export type { OpenAIAdapterOptions, OpenAIMaxTokensParameter } from './openai-adapter-options.js';
