import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';

describe('mapGeminiFinishReason', () => {
  it.each([
    ['STOP', 'stop'],
    ['MAX_TOKENS', 'length'],
    ['SAFETY', 'content_filter'],
    ['RECITATION', 'content_filter'],
    ['BLOCKLIST', 'content_filter'],
    ['PROHIBITED_CONTENT', 'content_filter'],
    ['SPII', 'content_filter'],
    ['IMAGE_SAFETY', 'content_filter'],
    ['LANGUAGE', 'other'],
    ['MALFORMED_FUNCTION_CALL', 'other'],
    ['OTHER', 'other'],
    ['FINISH_REASON_UNSPECIFIED', 'other'],
    [undefined, 'other'],
  ] as const)('maps %s to %s', (raw, reason) => {
    expect(mapGeminiFinishReason(raw, false)).toBe(reason);
  });

  it('says tool_calls exactly when the reply calls functions, whatever the raw reason (Gemini says STOP)', () => {
    fc.assert(
      fc.property(fc.option(fc.string(), { nil: undefined }), fc.boolean(), (raw, hasToolCalls) => {
        expect(mapGeminiFinishReason(raw, hasToolCalls) === 'tool_calls').toBe(hasToolCalls);
      }),
      { numRuns: 100 },
    );
  });
});
