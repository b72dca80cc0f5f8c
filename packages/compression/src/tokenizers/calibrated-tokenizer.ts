import type { ModelMessage, Tokenizer } from '@cairn/core';

/**
 * A `Tokenizer` that learns from the input tokens the provider reported for earlier requests of the
 * same conversation. Use one per conversation: after each model call, `calibrate` with the request's
 * messages and the reported input tokens; `count` of a later list that extends a calibrated one is
 * then that report plus the (scaled) count of the new messages, the provider's unseen overhead
 * (system prompt, tool schemas) included.
 */
export interface CalibratedTokenizer extends Tokenizer {
  /**
   * Records that a request of exactly these message objects, in this order, cost
   * `reportedInputTokens` (all input tokens, cached ones included). Throws `INVALID_ARGUMENT` unless
   * it is a finite number ≥ 0.
   */
  calibrate(messages: readonly ModelMessage[], reportedInputTokens: number): void;
  /**
   * Reported ÷ estimated growth between calibrated requests, in [0.5, 2]; 1 until one calibrated
   * list extends another, and always 1 for exact tokenizers.
   */
  readonly scale: number;
}
