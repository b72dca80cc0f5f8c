import type { ModelMessage } from '@cairn/core';
import { describe, expect, it } from 'vitest';
import { MAX_CALIBRATION_OBSERVATIONS } from './calibration-log.js';
import { createEstimatingTokenizer } from './create-estimating-tokenizer.js';
import { createOpenAITokenizer } from './create-openai-tokenizer.js';
import { estimateMessageTokens } from './estimate-message-tokens.js';
import { ESTIMATE_PROFILES } from './estimate-profile.js';
import { userMessages } from './test-support.js';

const profile = ESTIMATE_PROFILES.anthropic;
const estimate = (messages: readonly ModelMessage[]) =>
  messages.reduce((total, message) => total + estimateMessageTokens(message, profile), 0);
const newTokenizer = () => createEstimatingTokenizer({ family: 'anthropic' });
const [a, b, c, d] = userMessages(4) as [ModelMessage, ModelMessage, ModelMessage, ModelMessage];

describe('calibration', () => {
  it('counts the estimate plus the request framing until calibrated', () => {
    expect(newTokenizer().count([a, b])).toBe(estimate([a, b]) + profile.request);
    expect(newTokenizer().scale).toBe(1);
  });

  it('bases a list that extends a calibrated one on the reported tokens, absorbing the unseen overhead', () => {
    const tokenizer = newTokenizer();
    tokenizer.calibrate([a], 19_000);
    expect(tokenizer.count([a])).toBe(19_000);
    expect(tokenizer.count([a, b, c])).toBe(19_000 + estimate([b, c]));
  });

  it('learns the scale from the reported growth over the estimated growth', () => {
    const tokenizer = newTokenizer();
    tokenizer.calibrate([a], 1_000);
    tokenizer.calibrate([a, b], 1_000 + 1.5 * estimate([b]));
    expect(tokenizer.scale).toBeCloseTo(1.5);
    expect(tokenizer.count([a, b, c])).toBe(Math.round(1_000 + 1.5 * estimate([b]) + 1.5 * estimate([c])));
    // Growth is summed before dividing: a second pair adds to both sums.
    tokenizer.calibrate([a, b, c], 1_000 + 1.5 * estimate([b]) + 0.5 * estimate([c]));
    expect(tokenizer.scale).toBeCloseTo((1.5 * estimate([b]) + 0.5 * estimate([c])) / estimate([b, c]));
  });

  it('scales an image like text: a later image costs its estimate times the learned scale', () => {
    const tokenizer = newTokenizer();
    tokenizer.calibrate([a], 1_000);
    tokenizer.calibrate([a, b], 1_000 + 1.25 * estimate([b]));
    const screenshot: ModelMessage = {
      role: 'user',
      content: [
        {
          type: 'image',
          mediaType: 'image/png',
          source: { type: 'url', url: 'https://x.test/s.png' },
          width: 1200,
          height: 900,
        },
      ],
    };
    expect(estimate([screenshot])).toBe(profile.message + 1440);
    expect(tokenizer.count([a, b, screenshot])).toBe(
      Math.round(1_000 + 1.25 * estimate([b]) + 1.25 * estimate([screenshot])),
    );
  });

  it('clamps the scale to [0.5, 2]', () => {
    const growing = newTokenizer();
    growing.calibrate([a], 1_000);
    growing.calibrate([a, b], 1_000 + 10 * estimate([b]));
    expect(growing.scale).toBe(2);
    const shrinking = newTokenizer();
    shrinking.calibrate([a], 1_000);
    shrinking.calibrate([a, b], 900);
    expect(shrinking.scale).toBe(0.5);
  });

  it('uses the longest calibrated prefix, compared by message identity', () => {
    const tokenizer = newTokenizer();
    tokenizer.calibrate([a], 1_000);
    tokenizer.calibrate([a, b], 2_000);
    expect(tokenizer.scale).toBe(2);
    expect(tokenizer.count([a, b, c])).toBe(2_000 + 2 * estimate([c]));
    // b replaced by an equal but new object: only [a] is still a prefix.
    const bAgain = { ...b };
    expect(tokenizer.count([a, bAgain, c])).toBe(1_000 + 2 * estimate([bAgain, c]));
  });

  it('keeps the overhead of the latest report for a list that shares no calibrated prefix (after compaction)', () => {
    const tokenizer = newTokenizer();
    tokenizer.calibrate([a, b, c], 5_000);
    const summary: ModelMessage = { role: 'user', content: 'Summary of the conversation so far.' };
    expect(tokenizer.count([summary, d])).toBe(5_000 - estimate([a, b, c]) + estimate([summary, d]));
  });

  it('never lets a negative overhead make a count negative or a message free', () => {
    const tokenizer = newTokenizer();
    tokenizer.calibrate([a, b, c], 1);
    expect(tokenizer.count([])).toBe(0);
    expect(tokenizer.count([d]) - tokenizer.count([])).toBe(estimate([d]));
  });

  it('lets a new report of the same list replace the old one', () => {
    const tokenizer = newTokenizer();
    tokenizer.calibrate([a, b], 1_000);
    tokenizer.calibrate([a, b], 1_200);
    expect(tokenizer.count([a, b])).toBe(1_200);
    expect(tokenizer.scale).toBe(1);
  });

  it(`forgets the oldest report beyond ${MAX_CALIBRATION_OBSERVATIONS}`, () => {
    const tokenizer = newTokenizer();
    tokenizer.calibrate([a], 5_000);
    const other = userMessages(MAX_CALIBRATION_OBSERVATIONS, 'other');
    const reported = (length: number) => 1_000 + 2 * estimate(other.slice(1, length));
    for (let length = 1; length < other.length; length++)
      tokenizer.calibrate(other.slice(0, length), reported(length));
    expect(tokenizer.count([a, d])).toBe(5_000 + 2 * estimate([d]));
    tokenizer.calibrate(other, reported(other.length));
    // [a] was forgotten: the latest report stands in for the overhead.
    expect(tokenizer.count([a, d])).toBe(reported(other.length) + 2 * (estimate([a, d]) - estimate(other)));
  });

  it('rejects a reported count that is not a finite number ≥ 0', () => {
    for (const reported of [-1, Number.NaN, Number.POSITIVE_INFINITY, '12' as unknown as number]) {
      expect(() => newTokenizer().calibrate([a], reported)).toThrowError(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
    }
  });

  it('adds only the provider overhead to exact OpenAI counts; their scale stays 1', () => {
    const tokenizer = createOpenAITokenizer({ model: 'gpt-4o' });
    const exact = (messages: readonly ModelMessage[]) =>
      createOpenAITokenizer({ model: 'gpt-4o' }).count(messages);
    tokenizer.calibrate([a], exact([a]) + 700);
    tokenizer.calibrate([a, b], exact([a, b]) + 700 + 40);
    expect(tokenizer.scale).toBe(1);
    expect(tokenizer.count([a, b, c])).toBe(exact([a, b, c]) + 740);
  });
});
