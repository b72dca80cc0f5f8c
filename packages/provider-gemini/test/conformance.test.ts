import { describeModelAdapterConformance } from '@cairn/testing/conformance';
import { createGeminiAdapter } from '../src/index.js';

describeModelAdapterConformance({
  name: 'gemini',
  provider: 'gemini',
  createAdapter: ({ baseURL, apiKey, maxRetries }) =>
    createGeminiAdapter({ model: 'gemini-test', baseURL, apiKey, maxRetries }),
});
