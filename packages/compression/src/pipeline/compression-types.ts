import type { ModelMessage } from '@cairn/core';

/** How full a request is: its tokens against the budget left for input. */
export interface ContextUsage {
  tokens: number;
  /** `tokenBudget − reserveOutputTokens`. */
  budget: number;
  /** `tokens / budget` (1 = full). */
  usagePercent: number;
}

export type CompressionStepName = 'drop-old-media' | 'trim-tool-outputs' | 'summarize' | 'drop-turns';

/** What one step did. */
export interface CompressionStep {
  step: CompressionStepName;
  /** Messages the step replaced, summarised or left out. */
  messages: number;
  tokensBefore: number;
  tokensAfter: number;
  /**
   * The step failed (a summariser error, a summary no shorter than its messages): the history is as
   * it was before it.
   */
  error?: string;
}

/** A summary the pipeline wrote, for a caller to persist as a compaction record. */
export interface CompressionSummary {
  text: string;
  /** The summarised messages: indices into the messages given, inclusive. */
  fromIndex: number;
  toIndex: number;
  tokensBefore: number;
  tokensAfter: number;
}

export interface CompressionResult {
  messages: ModelMessage[];
  /** `true`: at or under the target now; `'partial'`: changed what it could, still over; `false`: nothing done. */
  compressed: boolean | 'partial';
  before: ContextUsage;
  after: ContextUsage;
  steps: CompressionStep[];
  summaries: CompressionSummary[];
  /** Why nothing was done, or why the target was not reached. */
  reason?: string;
}

/** `CompressionResult` of in-loop compression, with where the loop's own messages now start. */
export interface HistoricalCompressionResult extends CompressionResult {
  newLoopStartIndex: number;
}
