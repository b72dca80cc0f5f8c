import { type ModelMessage, ModelMessageSchema } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { createEstimatingTokenizer } from './create-estimating-tokenizer.js';
import type { EstimateFamily } from './estimate-profile.js';
import { readFixtureTurns, replayTurns } from './fixture-accuracy.mjs';

const PROVIDERS = ['anthropic', 'gemini'] as const satisfies readonly EstimateFamily[];

const percent = (value: number | undefined) => (value === undefined ? '' : `${(value * 100).toFixed(1)}%`);

describe.each(PROVIDERS)('calibrated estimate on the captured %s conversation', (provider) => {
  const turns = readFixtureTurns(provider);

  it('rebuilds five requests that grow by the previous reply and its tool results', () => {
    expect(turns.map((turn) => turn.messages.length)).toEqual([1, 3, 5, 7, 9]);
    const last = turns.at(-1)?.messages ?? [];
    for (const message of last) expect(ModelMessageSchema.safeParse(message).error).toBeUndefined();
    expect(last[0]).toMatchObject({ role: 'user', content: expect.stringContaining('hello.txt') });
    for (let index = 1; index < last.length; index += 2) {
      const reply = last[index] as ModelMessage;
      const result = last[index + 1] as ModelMessage;
      expect(reply.role).toBe('assistant');
      expect(result).toMatchObject({
        role: 'tool',
        tool_call_id: reply.role === 'assistant' && reply.tool_calls?.[0]?.id,
      });
    }
    // Turn 4's read of does-not-exist.txt failed.
    expect(last[8]).toMatchObject({ role: 'tool', isError: true });
  });

  it('predicts every turn after the first within 10% of the reported input tokens', () => {
    const results = replayTurns(
      turns,
      createEstimatingTokenizer({ family: provider }),
      createEstimatingTokenizer({ family: provider }),
    );
    console.info(
      `${provider}: per turn, reported vs predicted input tokens, and the growth since the previous turn\n${results
        .map(
          (result) =>
            `  turn ${result.turn}: reported ${result.reported}, predicted ${result.predicted} (${percent(result.relativeError)} off, scale ${result.scale.toFixed(2)})` +
            (result.reportedGrowth === undefined
              ? ''
              : `; growth reported ${result.reportedGrowth}, calibrated ${result.predictedGrowth} (${percent(result.calibratedGrowthError)} off), uncalibrated ${result.estimatedGrowth} (${percent(result.uncalibratedGrowthError)} off)`),
        )
        .join('\n')}`,
    );
    for (const result of results.slice(1)) expect(result.relativeError).toBeLessThan(0.1);
    // Uncalibrated, the first request misses the provider's overhead (system prompt, tool schemas).
    expect(results[0]?.relativeError).toBeGreaterThan(0.9);
  });

  it('estimates the growth between turns from the messages themselves, within a factor of 3 uncalibrated', () => {
    const results = replayTurns(
      turns,
      createEstimatingTokenizer({ family: provider }),
      createEstimatingTokenizer({ family: provider }),
    );
    for (const { estimatedGrowth = 0, reportedGrowth = 0 } of results.slice(1)) {
      expect(estimatedGrowth).toBeGreaterThan(reportedGrowth / 3);
      expect(estimatedGrowth).toBeLessThan(reportedGrowth * 3);
    }
  });
});
