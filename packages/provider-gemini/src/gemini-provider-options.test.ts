import { describe, expect, it } from 'vitest';
import { readGeminiProviderOptions } from './gemini-provider-options.js';

describe('readGeminiProviderOptions', () => {
  it('reads the gemini namespace and ignores the others', () => {
    expect(
      readGeminiProviderOptions({
        gemini: {
          thinkingConfig: { includeThoughts: true, thinkingBudget: 512 },
          safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' }],
          functionResponseMedia: 'nested',
        },
        anthropic: { thinking: { type: 'enabled' } },
      }),
    ).toEqual({
      thinkingConfig: { includeThoughts: true, thinkingBudget: 512 },
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' }],
      functionResponseMedia: 'nested',
    });
    expect(readGeminiProviderOptions(undefined)).toEqual({});
    expect(readGeminiProviderOptions({ openai: { store: true } })).toEqual({});
  });

  it.each([
    [{ thinkingBudget: 5 }, 'unknown option "thinkingBudget"'],
    [{ thinkingConfig: true }, 'thinkingConfig must be an object'],
    [{ safetySettings: [{ category: 'X' }] }, 'safetySettings must be'],
    [{ safetySettings: {} }, 'safetySettings must be'],
    [{ functionResponseMedia: 'inline' }, 'functionResponseMedia must be "nested" or "beside"'],
  ])('rejects %j with INVALID_ARGUMENT', (gemini, message) => {
    expect(() => readGeminiProviderOptions({ gemini })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining(message) }),
    );
  });
});
