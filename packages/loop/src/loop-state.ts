import type { FinishReason, OpenAIToolCall, TokenUsage } from '@cairn/core';
import type { AnsweringModel } from '@cairn/provider-utils';
import type { LoopAssistantMessage } from './chat-tool-loop-types.js';
import type { FailingCallTracker } from './failing-call-tracker.js';
import { StreamedText } from './streamed-text.js';

export const NO_USAGE: TokenUsage = { inputTokens: 0, outputTokens: 0 };

/** Everything a loop changes as it goes, in one place the steps read and update. */
export interface LoopState {
  /** Where this loop's messages start in `messages` (moves when the history is compressed). */
  loopStartIndex: number;
  /** Model calls started, including one that failed. */
  turn: number;
  /** The current turn's model call has not answered (yet, or ever: it failed). */
  awaitingModel: boolean;
  turnUsages: TokenUsage[];
  total: TokenUsage;
  /** The last assistant message pushed. */
  last: LoopAssistantMessage | undefined;
  /** The last model answer's finish reason. */
  finishReason: FinishReason;
  /** The calls of the last assistant message still without a result in `messages`. */
  unanswered: OpenAIToolCall[];
  /** Calls of the last assistant message waiting for an approval decided elsewhere: the loop ends. */
  waiting: OpenAIToolCall[];
  /** What the current model call has streamed: kept if the call fails (or is aborted) mid-answer. */
  streamed: StreamedText;
  /**
   * The model the current call's stream comes from, once a fallback model switched (a
   * `model_fallback` status event); until then the loop's model.
   */
  answering: AnsweringModel | undefined;
  /** The model's stream already told `onEvent` about its failure. */
  modelReportedError: boolean;
  tracker: FailingCallTracker;
  /** Invalid structured answers the model may still be asked again after. */
  outputRetriesLeft: number;
  /** The validated structured answer, once there is one. */
  output: { value: unknown } | undefined;
  /** The JSON text of the last `partial_object` event of the current call: only a change is sent. */
  partialSent: string | undefined;
}

export function newLoopState(
  loopStartIndex: number,
  tracker: FailingCallTracker,
  outputRetries = 0,
): LoopState {
  return {
    loopStartIndex,
    turn: 0,
    awaitingModel: false,
    turnUsages: [],
    total: NO_USAGE,
    last: undefined,
    finishReason: 'stop',
    unanswered: [],
    waiting: [],
    streamed: new StreamedText(),
    answering: undefined,
    modelReportedError: false,
    tracker,
    outputRetriesLeft: outputRetries,
    output: undefined,
    partialSent: undefined,
  };
}
