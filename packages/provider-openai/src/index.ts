export { createOpenAIAdapter } from './openai-adapter.js';
export type { OpenAIAdapterOptions, OpenAIMaxTokensParameter } from './openai-adapter-options.js';
export { createOpenAIResponsesAdapter, isOpenAIReasoningModel } from './openai-responses-adapter.js';
export type { OpenAIResponsesAdapterOptions } from './openai-responses-adapter-options.js';
