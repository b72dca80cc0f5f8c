import { createAnthropic } from '@ai-sdk/anthropic';
import { describeModelAdapterConformance } from '@cairn/testing/conformance';
import { createAiSdkAdapter } from '../src/index.js';

// A provider with a wire protocol of its own: @ai-sdk/anthropic (a LanguageModelV4) against the
// Anthropic Messages mock, with the mock's request rules on (the API's 400s for what it refuses).
describeModelAdapterConformance({
  name: 'ai-sdk anthropic 4 (LanguageModelV4)',
  provider: 'anthropic',
  createAdapter: ({ baseURL, apiKey, maxRetries }) =>
    createAiSdkAdapter(createAnthropic({ baseURL: `${baseURL}/v1`, apiKey })('claude-test'), { maxRetries }),
});
