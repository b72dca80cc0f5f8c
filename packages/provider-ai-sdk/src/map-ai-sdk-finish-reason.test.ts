import { describe, expect, it } from 'vitest';
import { mapAiSdkFinishReason } from './map-ai-sdk-finish-reason.js';

describe('mapAiSdkFinishReason', () => {
  it('maps V3/V4 reasons and keeps the raw one', () => {
    expect(mapAiSdkFinishReason({ unified: 'tool-calls', raw: 'tool_use' })).toEqual({
      reason: 'tool_calls',
      rawReason: 'tool_use',
    });
    expect(mapAiSdkFinishReason({ unified: 'content-filter', raw: 'SAFETY' })).toEqual({
      reason: 'content_filter',
      rawReason: 'SAFETY',
    });
    expect(mapAiSdkFinishReason({ unified: 'interrupted', raw: undefined })).toEqual({ reason: 'other' });
  });

  it('maps V2 reasons, which have no raw one', () => {
    expect(mapAiSdkFinishReason('stop')).toEqual({ reason: 'stop' });
    expect(mapAiSdkFinishReason('length')).toEqual({ reason: 'length' });
    expect(mapAiSdkFinishReason('unknown')).toEqual({ reason: 'other' });
    expect(mapAiSdkFinishReason('error')).toEqual({ reason: 'error' });
  });

  it('takes a reason a newer version adds as other', () => {
    expect(mapAiSdkFinishReason({ unified: 'paused', raw: 'pause_turn' })).toEqual({
      reason: 'other',
      rawReason: 'pause_turn',
    });
  });
});
