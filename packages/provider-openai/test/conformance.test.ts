import { describeModelAdapterConformance } from '@cairn/testing/conformance';
import { createOpenAIAdapter } from '../src/index.js';

describeModelAdapterConformance({
  name: 'openai',
  provider: 'openai',
  createAdapter: ({ baseURL, apiKey, maxRetries }) =>
    createOpenAIAdapter({ model: 'gpt-test', baseURL, apiKey, maxRetries }),
});
