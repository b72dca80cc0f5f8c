import { describeModelAdapterConformance } from '@cairn/testing/conformance';
import { createAnthropicAdapter } from '../src/index.js';

describeModelAdapterConformance({
  name: 'anthropic',
  provider: 'anthropic',
  createAdapter: ({ baseURL, apiKey, maxRetries }) =>
    createAnthropicAdapter({ model: 'claude-test', baseURL, apiKey, maxRetries }),
});
