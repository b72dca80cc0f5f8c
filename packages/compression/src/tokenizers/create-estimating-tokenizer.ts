import type { CalibratedTokenizer } from './calibrated-tokenizer.js';
import { createCountingTokenizer } from './create-counting-tokenizer.js';
import { estimateMessageTokens } from './estimate-message-tokens.js';
import { assertEstimateFamily, ESTIMATE_PROFILES, type EstimateFamily } from './estimate-profile.js';
import { estimateTextTokens } from './estimate-text-tokens.js';

export interface EstimatingTokenizerOptions {
  family: EstimateFamily;
}

/**
 * Estimated token counts for providers without a local tokenizer (Anthropic, Gemini): a
 * character-class estimate (see `ESTIMATE_PROFILES`) plus per-message framing, corrected by
 * `calibrate` with the usage the provider reported on earlier turns. Named `estimate:<family>`.
 */
export function createEstimatingTokenizer(options: EstimatingTokenizerOptions): CalibratedTokenizer {
  const { family } = (options ?? {}) as { family?: unknown };
  assertEstimateFamily(family);
  const profile = ESTIMATE_PROFILES[family];
  return createCountingTokenizer({
    name: `estimate:${family}`,
    countText: (text) => Math.ceil(estimateTextTokens(text, profile)),
    countMessage: (message) => estimateMessageTokens(message, profile),
    requestTokens: profile.request,
    learnsScale: true,
  });
}
