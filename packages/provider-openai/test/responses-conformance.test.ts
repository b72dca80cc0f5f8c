import { openAIResponsesMockProtocol } from '@cairn/testing';
import { describeModelAdapterConformance } from '@cairn/testing/conformance';
import { createOpenAIResponsesAdapter } from '../src/index.js';

// A reasoning model: the kit's round trip checks the encrypted reasoning is replayed.
describeModelAdapterConformance({
  name: 'openai-responses',
  provider: openAIResponsesMockProtocol,
  createAdapter: ({ baseURL, apiKey, maxRetries }) =>
    createOpenAIResponsesAdapter({ model: 'gpt-5-mini', baseURL, apiKey, maxRetries }),
});
