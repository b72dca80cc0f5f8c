import { FinishReasonSchema } from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapOpenAIFinishReason } from './map-openai-finish-reason.js';

describe('mapOpenAIFinishReason', () => {
  it('maps each Chat Completions reason and keeps it raw', () => {
    expect(mapOpenAIFinishReason('stop')).toEqual({ reason: 'stop', rawReason: 'stop' });
    expect(mapOpenAIFinishReason('length')).toEqual({ reason: 'length', rawReason: 'length' });
    expect(mapOpenAIFinishReason('content_filter')).toEqual({
      reason: 'content_filter',
      rawReason: 'content_filter',
    });
    expect(mapOpenAIFinishReason('tool_calls')).toEqual({ reason: 'tool_calls', rawReason: 'tool_calls' });
    expect(mapOpenAIFinishReason('function_call')).toEqual({
      reason: 'tool_calls',
      rawReason: 'function_call',
    });
  });

  it('says other for a server-specific reason, and for none without a raw value', () => {
    expect(mapOpenAIFinishReason('eos')).toEqual({ reason: 'other', rawReason: 'eos' });
    expect(mapOpenAIFinishReason(null)).toEqual({ reason: 'other' });
    expect(mapOpenAIFinishReason(undefined)).toEqual({ reason: 'other' });
  });

  it('always gives a core finish reason that is neither aborted nor error, raw kept (property)', () => {
    fc.assert(
      fc.property(
        fc.option(fc.oneof(fc.string(), fc.constantFrom('stop', 'length', 'aborted', 'error')), {
          nil: null,
        }),
        (raw) => {
          const mapped = mapOpenAIFinishReason(raw);
          expect(FinishReasonSchema.parse(mapped.reason)).toBe(mapped.reason);
          expect(['aborted', 'error']).not.toContain(mapped.reason);
          expect(mapped.rawReason).toBe(raw ?? undefined);
        },
      ),
      { numRuns: 100 },
    );
  });
});
