import type { ModelMessage } from '../messages/model-message.js';

/** What `compressHistoricalMessages` returns. */
export interface HistoryCompressionResult {
  /** The compressed history followed by every message from `loopStartIndex` on: the same objects, unchanged. */
  messages: ModelMessage[];
  /** Where the running loop's own messages now start in `messages`. */
  newLoopStartIndex: number;
}

/**
 * The part of a compression pipeline a tool loop calls before each model request:
 * when the request is over the trigger, only the history before the loop's start is compressed, so
 * the loop's own calls and results reach the model intact. `CompressionPipeline` from
 * `@cairn/compression` implements it.
 */
export interface LoopCompressionPipeline {
  shouldCompress(messages: readonly ModelMessage[]): boolean;
  compressHistoricalMessages(
    messages: readonly ModelMessage[],
    loopStartIndex: number,
  ): HistoryCompressionResult | Promise<HistoryCompressionResult>;
}
