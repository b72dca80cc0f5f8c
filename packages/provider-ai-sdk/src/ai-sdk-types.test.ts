import type {
  LanguageModelV2,
  LanguageModelV2CallOptions,
  LanguageModelV2Usage,
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Usage,
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Usage,
  SharedV4FileData,
} from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import type { AiSdkLanguageModel } from './ai-sdk-language-model.js';
import type { AiSdkFileData, AiSdkToolChoice, AiSdkV2Usage, AiSdkV4Usage } from './ai-sdk-types.js';

// Compile-time checks (run by `typecheck`): the shapes declared in ai-sdk-types.ts against the
// real ones of @ai-sdk/provider 4, which defines V2, V3 and V4. Each function only type-checks.
const checks = {
  // Every version's model is accepted by createAiSdkAdapter.
  models: (v2: LanguageModelV2, v3: LanguageModelV3, v4: LanguageModelV4): AiSdkLanguageModel[] => [
    v2,
    v3,
    v4,
  ],
  // What is read: each version's usage fits the shape the converter reads.
  usage: (v2: LanguageModelV2Usage, v3: LanguageModelV3Usage, v4: LanguageModelV4Usage) => {
    const flat: AiSdkV2Usage = v2;
    const nested: AiSdkV4Usage[] = [v3, v4];
    return [flat, nested];
  },
  // What is written: tool choices and V4 file data are what the versions take.
  toolChoice: (choice: AiSdkToolChoice) => {
    const options: Array<
      | LanguageModelV2CallOptions['toolChoice']
      | LanguageModelV3CallOptions['toolChoice']
      | LanguageModelV4CallOptions['toolChoice']
    > = [choice, choice, choice];
    return options;
  },
  fileData: (data: Extract<AiSdkFileData, { type: string }>): SharedV4FileData => data,
};

describe('the AI SDK shapes this package declares', () => {
  it('type-check against @ai-sdk/provider (see the checks above)', () => {
    expect(Object.keys(checks)).toHaveLength(4);
  });
});
