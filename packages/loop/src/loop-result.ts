import type { CairnError, FinishReason } from '@cairn/core';
import { definedFields } from '@cairn/core';
import type { ChatToolLoopResult } from './chat-tool-loop-types.js';
import type { LoopRun } from './loop-run.js';
import type { LoopState } from './loop-state.js';

/** How the loop ended: no error when the model answered without calls. */
export interface LoopEnd {
  error?: CairnError;
  /** The model's stream already reported the error to `onEvent`. */
  reportedByModel?: boolean;
}

/**
 * The loop's finish reason: `aborted` for an abort, `error` for a failure while the turn's model
 * call had not answered, otherwise the last answer's own reason.
 */
function loopFinishReason(state: LoopState, error: CairnError | undefined): FinishReason {
  if (error?.code === 'LLM_ABORTED') return 'aborted';
  if (error !== undefined && state.awaitingModel) return 'error';
  return state.finishReason;
}

/** The loop's failure as the final `error` event. */
export function reportLoopError(run: LoopRun, error: CairnError): void {
  run.emit({
    type: 'error',
    timestamp: run.now().toISOString(),
    code: error.code,
    message: error.message,
    retryable: error.retryable,
    fatal: true,
  });
}

export function loopResult(run: LoopRun, state: LoopState, error?: CairnError): ChatToolLoopResult<unknown> {
  const outcome = {
    ...definedFields({ message: state.last }),
    text: state.last?.content ?? '',
    messages: run.params.messages,
    usage: { turns: state.turnUsages, total: state.total },
    turns: state.turn,
    finishReason: loopFinishReason(state, error),
  };
  return error === undefined
    ? {
        success: true,
        ...outcome,
        ...(state.output === undefined ? {} : { object: state.output.value }),
        ...(state.waiting.length === 0 ? {} : { waiting: state.waiting }),
        ...state.tracker.current,
      }
    : { success: false, ...outcome, error, ...state.tracker.current };
}

/** Reports the end's error (unless the model did) and builds the result. */
export function finishLoop(run: LoopRun, state: LoopState, end: LoopEnd): ChatToolLoopResult<unknown> {
  if (end.error !== undefined && !end.reportedByModel) reportLoopError(run, end.error);
  return loopResult(run, state, end.error);
}
