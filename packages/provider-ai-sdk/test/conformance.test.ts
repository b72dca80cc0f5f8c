import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createOpenAICompatible as createOpenAICompatibleV2 } from '@ai-sdk/openai-compatible-v2';
import { createOpenAICompatible as createOpenAICompatibleV3 } from '@ai-sdk/openai-compatible-v3';
import { describeModelAdapterConformance } from '@cairn/testing/conformance';
import { createAiSdkAdapter } from '../src/index.js';

// One provider, @ai-sdk/openai-compatible, at each of its lines: 3.x is a LanguageModelV4 (AI SDK
// 7), 2.x a V3 (AI SDK 6), 1.x a V2 (AI SDK 5); all against the OpenAI Chat Completions mock.
const lines = [
  { name: 'ai-sdk openai-compatible 3 (LanguageModelV4)', create: createOpenAICompatible, skip: [] },
  { name: 'ai-sdk openai-compatible 2 (LanguageModelV3)', create: createOpenAICompatibleV3, skip: [] },
  {
    name: 'ai-sdk openai-compatible 1 (LanguageModelV2)',
    create: createOpenAICompatibleV2,
    // LanguageModelV2 gives only the unified finish reason: the API's own (`tool_calls`, `stop`)
    // came with V3 (`finishReason.raw`), so a V2 model's result has no `rawFinishReason` to check.
    skip: [
      'finish reason is tool_calls exactly when the message has tool calls (stop, length, content_filter)',
    ],
  },
];

for (const { name, create, skip } of lines) {
  describeModelAdapterConformance({
    name,
    provider: 'openai',
    skip,
    createAdapter: ({ baseURL, apiKey, maxRetries }) =>
      createAiSdkAdapter(
        create({ name: 'mock', baseURL, apiKey, includeUsage: true }).chatModel('gpt-test'),
        {
          maxRetries,
        },
      ),
  });
}
