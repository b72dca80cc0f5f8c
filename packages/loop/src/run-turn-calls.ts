import {
  CairnError,
  contentText,
  definedFields,
  type ModelToolMessage,
  type OpenAIToolCall,
  type ToolCallResult,
  toolOutputForModel,
} from '@cairn/core';
import type { LoopToolMessage } from './chat-tool-loop-types.js';
import { interruptedToolResult } from './interrupted-tool-result.js';
import type { LoopRun } from './loop-run.js';
import type { LoopState } from './loop-state.js';
import { runToolCalls } from './run-tool-calls.js';
import { toolContentForModel } from './tool-content-for-model.js';

const firstLine = (text: string) => text.split('\n', 1)[0] ?? '';

/** Pushes one result, hands it to `onEvent` and `onToolMessage`; returns the failure's repeat count. */
async function pushToolResult(
  run: LoopRun,
  state: LoopState,
  result: ToolCallResult,
  call: OpenAIToolCall,
): Promise<number> {
  const { params, maxToolResultChars } = run;
  // Parts the model cannot take are named instead, here and in the log: later turns send the same.
  const output = toolContentForModel(result.content, params.model.capabilities.inputMediaTypes);
  // The model reads a bounded form: the whole output goes to the callback (to be stored) only.
  const content = toolOutputForModel({ content: output }, maxToolResultChars);
  const message: ModelToolMessage = { role: 'tool', tool_call_id: call.id, content };
  if (result.isError) message.isError = true;
  params.messages.push(message);
  state.unanswered = state.unanswered.filter((pending) => pending !== call);
  const createdAt = run.now().toISOString();
  run.emit({
    type: 'tool_result',
    timestamp: createdAt,
    toolUseId: call.id,
    toolName: result.toolName,
    // Text for text-only views; the parts too when the tool returned them (an image it made).
    output: contentText(output, { placeholders: true }),
    ...(Array.isArray(output) ? { content: output } : {}),
    isError: result.isError,
    durationMs: result.durationMs,
    ...(result.structured === undefined ? {} : { structured: result.structured as never }),
  });
  const shown: LoopToolMessage = {
    id: run.generateId(),
    createdAt,
    turn: state.turn,
    role: 'tool',
    tool_call_id: call.id,
    content: output,
    toolName: result.toolName,
    duration: result.durationMs,
    isError: result.isError,
    ...definedFields({ errorCode: result.errorCode, structured: result.structured }),
    ...(result.interrupted ? { interrupted: true } : {}),
  };
  const stored = await params.onToolMessage?.(shown);
  // As stored (a big output offloaded to its preview): what later turns built from the store send.
  if (stored) message.content = toolOutputForModel(stored, maxToolResultChars);
  return state.tracker.record(result, call.function.arguments);
}

/** Runs the calls; the `LOOP_STUCK` error when a failure repeated too often. */
export async function runTurnCalls(
  run: LoopRun,
  state: LoopState,
  calls: OpenAIToolCall[],
): Promise<CairnError | undefined> {
  let stuck: CairnError | undefined;
  await runToolCalls(
    calls,
    run.concurrency,
    (call) =>
      run.telemetry.toolExecution({ call }, async (scope) => {
        const result = await run.host.execute(call, run.execution);
        scope.end(result);
        return result;
      }),
    async (result, index) => {
      const call = calls[index] as OpenAIToolCall;
      if (result.pending) {
        // No result yet: the call waits, unanswered, for a decision someone stores later.
        state.unanswered = state.unanswered.filter((pending) => pending !== call);
        state.waiting.push(call);
        return;
      }
      const repeats = await pushToolResult(run, state, result, call);
      if (repeats >= run.stuckThreshold && stuck === undefined) {
        stuck = new CairnError(
          'LOOP_STUCK',
          `${result.toolName} failed the same way ${repeats} times in a row (${result.errorCode ?? 'error'}: ${firstLine(contentText(result.content, { placeholders: true }))}); the loop stopped instead of trying again.`,
        );
      }
    },
    () => run.tooling.abort(new CairnError('LLM_ABORTED', 'the loop stopped after a failure')),
  );
  return stuck;
}

/** After a failure mid-turn: every call still unanswered gets an interrupted result. */
export async function answerRemainingCalls(run: LoopRun, state: LoopState, reason: string): Promise<void> {
  for (const call of state.unanswered) {
    try {
      await pushToolResult(run, state, interruptedToolResult(call, reason), call);
    } catch {
      // The callback failing again must not stop the log from being completed.
    }
  }
  state.unanswered = [];
}
