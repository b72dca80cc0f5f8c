export { createGeminiAdapter } from './gemini-adapter.js';
export type { GeminiAdapterOptions } from './gemini-adapter-options.js';
export type { GeminiProviderOptions } from './gemini-provider-options.js';
