export { createAiSdkAdapter } from './ai-sdk-adapter.js';
export type { AiSdkAdapterOptions } from './ai-sdk-adapter-options.js';
export type { AiSdkLanguageModel } from './ai-sdk-language-model.js';
