import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { describeModelAdapterConformance } from '@cairn/testing/conformance';
import { createAiSdkAdapter } from '../src/index.js';

// @ai-sdk/google (a LanguageModelV4) against the Gemini API mock, with its request rules on.
describeModelAdapterConformance({
  name: 'ai-sdk google 4 (LanguageModelV4)',
  provider: 'gemini',
  createAdapter: ({ baseURL, apiKey, maxRetries }) =>
    createAiSdkAdapter(createGoogleGenerativeAI({ baseURL: `${baseURL}/v1beta`, apiKey })('gemini-test'), {
      maxRetries,
    }),
});
