import { CairnError, type ModelMessage } from '@cairn/core';
import type { CalibratedTokenizer } from './calibrated-tokenizer.js';
import { CalibrationLog } from './calibration-log.js';
import { MessageSumCache } from './message-sum-cache.js';

export interface CountingTokenizerOptions {
  /** Which encoding or estimate this is (`o200k_base`, `estimate:anthropic`). */
  name: string;
  countText(text: string): number;
  /** Tokens of one message in a request, its framing included. Called once per message object. */
  countMessage(message: ModelMessage): number;
  /** Tokens a request adds once, whatever its messages (priming the reply). */
  requestTokens: number;
  /** Learn a scale from reported growth (estimates); an exact tokenizer keeps 1. */
  learnsScale: boolean;
}

/**
 * A `CalibratedTokenizer` from a per-message count: caches each message's count and the running
 * totals of the last list (see `MessageSumCache`), and corrects counts with the reported usage (see
 * `CalibrationLog`). Before any calibration, `count` is the per-message sum + `requestTokens`.
 */
export function createCountingTokenizer(options: CountingTokenizerOptions): CalibratedTokenizer {
  const { name, countText, countMessage, requestTokens, learnsScale } = options;
  const cache = new MessageSumCache(countMessage);
  const log = new CalibrationLog(learnsScale);
  return {
    name,
    countText,
    count(messages) {
      const estimated = cache.sum(messages);
      return log.count(messages, estimated) ?? estimated + requestTokens;
    },
    calibrate(messages, reportedInputTokens) {
      if (!Number.isFinite(reportedInputTokens) || reportedInputTokens < 0) {
        throw new CairnError(
          'INVALID_ARGUMENT',
          `reportedInputTokens must be a finite number ≥ 0; got ${reportedInputTokens}`,
          { details: { reportedInputTokens } },
        );
      }
      log.record(messages, reportedInputTokens, cache.sum(messages));
    },
    get scale() {
      return log.scale;
    },
  };
}
