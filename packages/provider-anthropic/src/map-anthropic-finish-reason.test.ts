import { FinishReasonSchema } from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapAnthropicFinishReason } from './map-anthropic-finish-reason.js';

describe('mapAnthropicFinishReason', () => {
  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['tool_use', 'tool_calls'],
    ['refusal', 'content_filter'],
    ['pause_turn', 'other'],
  ] as const)('maps %s to %s and keeps the raw reason', (raw, reason) => {
    expect(mapAnthropicFinishReason(raw)).toEqual({ finishReason: reason, rawFinishReason: raw });
  });

  it('maps a missing reason to other without a raw reason', () => {
    expect(mapAnthropicFinishReason(null)).toEqual({ finishReason: 'other' });
    expect(mapAnthropicFinishReason(undefined)).toEqual({ finishReason: 'other' });
  });

  it('maps any other string to other, keeping it raw (prototype keys included)', () => {
    expect(mapAnthropicFinishReason('toString')).toEqual({
      finishReason: 'other',
      rawFinishReason: 'toString',
    });
    fc.assert(
      fc.property(fc.string(), (raw) => {
        const mapped = mapAnthropicFinishReason(raw);
        expect(FinishReasonSchema.safeParse(mapped.finishReason).success).toBe(true);
        expect(mapped.rawFinishReason).toBe(raw);
      }),
      { numRuns: 100 },
    );
  });
});
