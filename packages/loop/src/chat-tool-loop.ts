import { CairnError, type ModelResult, toCairnError } from '@cairn/core';
import { callModel } from './call-model.js';
import type { ChatToolLoopParams, ChatToolLoopResult } from './chat-tool-loop-types.js';
import { compressHistory } from './compress-history.js';
import { FailingCallTracker } from './failing-call-tracker.js';
import { finishLoop, type LoopEnd, loopResult, reportLoopError } from './loop-result.js';
import { CallbackFailure, type LoopRun, startLoopRun } from './loop-run.js';
import { type LoopState, NO_USAGE, newLoopState } from './loop-state.js';
import { keepInterruptedAnswer, pushModelAnswer } from './push-assistant-message.js';
import { answerRemainingCalls, runTurnCalls } from './run-turn-calls.js';
import { checkOutput, outputFeedback, outputInvalidError } from './structured-output.js';

export { DEFAULT_MAX_TURNS, DEFAULT_TOOL_CONCURRENCY } from './loop-run.js';

const aborted = (): LoopEnd => ({ error: new CairnError('LLM_ABORTED', 'the loop was aborted') });

/**
 * The answer with `output`: its validated value kept, or, while retries are left (and turns), the
 * model told what was wrong — a user message, pushed and handed to `onUserMessage` — and asked
 * again; then `OUTPUT_INVALID`.
 */
async function checkAnswer(run: LoopRun, state: LoopState): Promise<LoopEnd | undefined> {
  const { output } = run;
  if (output === undefined) return {};
  const text = state.last?.content ?? '';
  const checked = await checkOutput(output, text);
  if (checked.success) {
    state.output = { value: checked.value };
    return {};
  }
  if (state.outputRetriesLeft === 0 || state.turn >= run.maxTurns) {
    return { error: outputInvalidError(checked.issues, text, output.retries - state.outputRetriesLeft + 1) };
  }
  state.outputRetriesLeft--;
  const content = outputFeedback(checked.issues);
  run.params.messages.push({ role: 'user', content });
  await run.params.onUserMessage?.({
    id: run.generateId(),
    createdAt: run.now().toISOString(),
    turn: state.turn,
    role: 'user',
    content,
  });
  return undefined;
}

/** How a turn that ran its calls ends the loop, if it does: `undefined` goes on to the next turn. */
function turnEnd(run: LoopRun, stuck: CairnError | undefined): LoopEnd | undefined {
  if (run.params.signal?.aborted) return aborted();
  if (stuck !== undefined) return { error: stuck };
  return undefined;
}

/** One turn: call the model, push its answer, run its calls, decide whether the loop ends. */
async function playTurn(run: LoopRun, state: LoopState): Promise<LoopEnd | undefined> {
  const { params } = run;
  state.turn++;
  state.awaitingModel = true;
  await params.onTurnStart?.({ turn: state.turn });
  let result: ModelResult;
  try {
    result = await callModel(run, state);
  } catch (error) {
    if (error instanceof CallbackFailure) throw error;
    // Adapters throw CairnErrors; anything else is an answer the loop could not use.
    const failure = toCairnError(error, 'LLM_BAD_RESPONSE');
    const ended = failure.code === 'LLM_ABORTED' ? 'aborted' : 'error';
    await keepInterruptedAnswer(run, state, ended);
    await params.onTurnEnd?.({ turn: state.turn, usage: NO_USAGE, finishReason: ended, toolCalls: 0 });
    return { error: failure, reportedByModel: state.modelReportedError };
  }
  const calls = await pushModelAnswer(run, state, result);
  const stuck = calls.length === 0 ? undefined : await runTurnCalls(run, state, calls);
  await params.onTurnEnd?.({
    turn: state.turn,
    usage: result.usage,
    finishReason: result.finishReason,
    toolCalls: calls.length,
  });
  if (calls.length === 0) return await checkAnswer(run, state);
  // Calls waiting for a decision: the loop ends here, without a model call, to continue once decided.
  return turnEnd(run, stuck) ?? (state.waiting.length > 0 ? {} : undefined);
}

// A callback (a persister, onEvent) or a custom tool host failed: the log is completed first.
// A CairnError (a store that is down) is the loop's result; anything else is a bug, rethrown.
async function endAfterThrow(
  run: LoopRun,
  state: LoopState,
  thrown: unknown,
): Promise<ChatToolLoopResult<unknown>> {
  const error = thrown instanceof CallbackFailure ? thrown.failure : thrown;
  run.tooling.abort(error);
  await answerRemainingCalls(run, state, error instanceof Error ? error.message : String(error));
  if (!CairnError.is(error)) throw error;
  try {
    reportLoopError(run, error);
  } catch {
    // onEvent failing again on the error event: the failure it reported is already the result.
  }
  return loopResult(run, state, error);
}

/**
 * The tool loop: call the model (streaming when it can) → push its message → run its tool calls
 * (in parallel, results pushed in call order) → call the model again, until it answers without
 * calls. It stops on `maxTurns` (`LOOP_MAX_TURNS`), on the same failing call repeating
 * (`LOOP_STUCK`), on abort (`LLM_ABORTED`) or on a model failure the adapter could not retry;
 * it never throws for these, and never leaves a tool call without a result in `messages`.
 * Each message pushed is handed to the callbacks, awaited, with a stable id. With `output`, the
 * answer must be JSON that the schema validates: the result's `object` is the value, typed.
 */
export async function chatToolLoop<OUTPUT = never>(
  params: ChatToolLoopParams<OUTPUT>,
): Promise<ChatToolLoopResult<OUTPUT>> {
  // The validated value is `output`'s: what the schema gives is OUTPUT.
  return (await runLoop(params as ChatToolLoopParams<unknown>)) as ChatToolLoopResult<OUTPUT>;
}

async function runLoop(params: ChatToolLoopParams<unknown>): Promise<ChatToolLoopResult<unknown>> {
  const run = startLoopRun(params);
  const state = newLoopState(
    params.messages.length,
    new FailingCallTracker(params),
    run.output?.retries ?? 0,
  );
  const { signal } = params;
  // Running tools stop on the caller's abort too; the loop aborts them itself when it gives up.
  const stopTools = () => run.tooling.abort(signal?.reason);
  signal?.addEventListener('abort', stopTools, { once: true });
  try {
    while (state.turn < run.maxTurns) {
      if (signal?.aborted) return finishLoop(run, state, aborted());
      if (params.compressionPipeline !== undefined) {
        state.loopStartIndex = await compressHistory(
          params.compressionPipeline,
          params.messages,
          state.loopStartIndex,
        );
      }
      const end = await playTurn(run, state);
      if (end !== undefined) return finishLoop(run, state, end);
    }
    return finishLoop(run, state, {
      error: new CairnError(
        'LOOP_MAX_TURNS',
        `The model was still calling tools after ${run.maxTurns} turns; the loop stopped.`,
      ),
    });
  } catch (thrown) {
    return await endAfterThrow(run, state, thrown);
  } finally {
    signal?.removeEventListener('abort', stopTools);
  }
}
