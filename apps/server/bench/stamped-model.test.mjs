import { describe, expect, it } from 'vitest';
import { createStampedModel, readTurnStamps, STAMP_PATTERN } from './stamped-model.mjs';

describe('the stamped model', () => {
  it('stamps its call time into the first chunk and its own pacing into the last, which readTurnStamps reads back', async () => {
    // random() = 0.5: every wait is exactly its mean.
    const model = createStampedModel({ chunks: 3, firstChunkMs: 4, chunkMs: 2, random: () => 0.5 });
    const result = await model.generate({ messages: [{ role: 'user', content: 'hi' }] });
    const text = result.message.content;
    expect(text.match(STAMP_PATTERN)).toHaveLength(3);
    const { call, lastEmit, pacedMs } = readTurnStamps(text);
    expect(pacedMs).toBe(4 + 2 + 2);
    expect(lastEmit).toBeGreaterThan(call);
  });

  it('reads the stamps out of an SSE body, whatever else it carries, and gives undefined without them', () => {
    const body =
      'event: agent_output\ndata: {"type":"text_delta","delta":"[call:100.500][due:101.000][emit:101.250] a"}\n\n' +
      'event: agent_output\ndata: {"type":"text_delta","delta":"[due:102.000][emit:103.125][paced:2] b."}\n\n' +
      'event: done\ndata: {"success":true}\n\n';
    expect(readTurnStamps(body)).toEqual({ call: 100.5, lastEmit: 103.125, pacedMs: 2 });
    expect(readTurnStamps('event: done\ndata: {"success":true}\n\n')).toEqual({
      call: undefined,
      lastEmit: undefined,
      pacedMs: undefined,
    });
  });
});
