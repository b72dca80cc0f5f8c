import { z } from 'zod';

/**
 * Why a model call ended, the same whatever the provider. The provider's own value (`end_turn`,
 * `STOP`, `max_tokens`, …) is kept beside it: `rawReason` on the `finish` event,
 * `rawFinishReason` on `ModelResult`.
 */
export const FinishReasonSchema = z.enum([
  /** The model finished its answer. */
  'stop',
  /** The output token limit cut the answer. */
  'length',
  /** The model requested tool calls (exactly when the message carries them). */
  'tool_calls',
  /** A safety filter stopped the answer. */
  'content_filter',
  /** The call was aborted by the caller. */
  'aborted',
  /** The call failed. */
  'error',
  /** Any other provider reason. */
  'other',
]);

export type FinishReason = z.infer<typeof FinishReasonSchema>;
