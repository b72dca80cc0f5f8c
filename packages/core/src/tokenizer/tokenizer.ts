import type { ModelMessage } from '../messages/model-message.js';

/**
 * Counts tokens the way a model family does (exactly, or as a calibrated estimate). Implementations
 * cache per message object, so counting a long history again after one new message costs O(1 message).
 */
export interface Tokenizer {
  /** Which encoding or estimate this is (`o200k_base`, `estimate:anthropic`). */
  readonly name: string;
  countText(text: string): number;
  /** Tokens of the messages as a request, per-message framing included. */
  count(messages: readonly ModelMessage[]): number;
}
