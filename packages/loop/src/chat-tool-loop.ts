import {
  type AgentOutput,
  addTokenUsage,
  CairnError,
  createMessageIds,
  type FinishReason,
  type ModelAssistantMessage,
  type ModelRequest,
  type ModelResult,
  type ModelToolMessage,
  mergeToolPolicies,
  type OpenAIToolCall,
  resolveMaxToolResultChars,
  type TokenUsage,
  type ToolCallResult,
  type ToolExecutionOptions,
  type ToolPolicy,
  toCairnError,
  toolOutputForModel,
} from '@cairn/core';
import type {
  ChatToolLoopParams,
  ChatToolLoopResult,
  LayeredToolPolicy,
  LoopAssistantMessage,
  LoopToolMessage,
} from './chat-tool-loop-types.js';
import { compressHistory } from './compress-history.js';
import { createToolHost } from './create-tool-host.js';
import { DEFAULT_STUCK_THRESHOLD, FailingCallTracker } from './failing-call-tracker.js';
import { interruptedToolResult } from './interrupted-tool-result.js';
import { runToolCalls } from './run-tool-calls.js';
import { StreamedText } from './streamed-text.js';

export const DEFAULT_MAX_TURNS = 20;
export const DEFAULT_TOOL_CONCURRENCY = 8;

const NO_USAGE: TokenUsage = { inputTokens: 0, outputTokens: 0 };
const NO_TOOLS = createToolHost([]);

function positiveInteger(name: string, value: number, allowInfinity = false): number {
  if ((allowInfinity && value === Number.POSITIVE_INFINITY) || (Number.isInteger(value) && value >= 1))
    return value;
  throw new CairnError('INVALID_ARGUMENT', `${name} must be a positive integer, got ${value}`);
}

const firstLine = (text: string) => text.split('\n', 1)[0] ?? '';

/** A callback of the caller threw: not a model failure, whatever was running when it did. */
class CallbackFailure extends Error {
  constructor(readonly failure: unknown) {
    super('a callback failed');
  }
}

function resolvePolicy(policy: ToolPolicy | LayeredToolPolicy | undefined): ToolPolicy | undefined {
  if (policy === undefined) return undefined;
  return 'system' in policy || 'agent' in policy
    ? mergeToolPolicies(policy as LayeredToolPolicy)
    : (policy as ToolPolicy);
}

/**
 * The message with every tool call id unique: a repeated id (some models reuse one) gets a
 * suffix, since each call needs its own result and providers refuse duplicate ids on replay.
 */
function withUniqueCallIds(message: ModelAssistantMessage): ModelAssistantMessage {
  const calls = message.tool_calls;
  if (calls === undefined || calls.length < 2) return message;
  const seen = new Set<string>();
  let renamed = false;
  const unique = calls.map((call) => {
    let id = call.id;
    for (let suffix = 2; seen.has(id); suffix++) id = `${call.id}-${suffix}`;
    seen.add(id);
    if (id === call.id) return call;
    renamed = true;
    return { ...call, id };
  });
  return renamed ? { ...message, tool_calls: unique } : message;
}

/**
 * The tool loop: call the model (streaming when it can) → push its message → run its tool calls
 * (in parallel, results pushed in call order) → call the model again, until it answers without
 * calls. It stops on `maxTurns` (`LOOP_MAX_TURNS`), on the same failing call repeating
 * (`LOOP_STUCK`), on abort (`LLM_ABORTED`) or on a model failure the adapter could not retry;
 * it never throws for these, and never leaves a tool call without a result in `messages`.
 * Each message pushed is handed to the callbacks, awaited, with a stable id.
 */
export async function chatToolLoop(params: ChatToolLoopParams): Promise<ChatToolLoopResult> {
  const { model, messages, signal } = params;
  const maxTurns = positiveInteger('maxTurns', params.maxTurns ?? DEFAULT_MAX_TURNS);
  const concurrency = positiveInteger('toolConcurrency', params.toolConcurrency ?? DEFAULT_TOOL_CONCURRENCY);
  const stuckThreshold = positiveInteger(
    'stuckThreshold',
    params.stuckThreshold ?? DEFAULT_STUCK_THRESHOLD,
    true,
  );
  const maxToolResultChars = resolveMaxToolResultChars(params.maxToolResultChars);
  const host = params.tools ?? NO_TOOLS;
  const generateId = params.generateId ?? createMessageIds();
  const now = params.now ?? (() => new Date());
  const streaming = params.stream ?? model.capabilities.streaming;
  const tracker = new FailingCallTracker(params);
  const policy = resolvePolicy(params.policy);
  const tools = host.getVisibleTools(policy === undefined ? {} : { policy });
  // The tools' signal: the caller's abort, or the loop's own when it gives up mid-turn (a callback
  // failed), so no call keeps running after the loop has returned.
  const tooling = new AbortController();
  const stopTools = () => tooling.abort(signal?.reason);
  signal?.addEventListener('abort', stopTools, { once: true });
  const execution: ToolExecutionOptions = {
    ...params.context,
    signal: tooling.signal,
    ...(policy === undefined ? {} : { policy }),
    ...(params.approve === undefined ? {} : { approve: params.approve }),
  } as ToolExecutionOptions;

  let loopStartIndex = messages.length;
  const turnUsages: TokenUsage[] = [];
  let total = NO_USAGE;
  let last: LoopAssistantMessage | undefined;
  let finishReason: FinishReason = 'stop';
  let turn = 0;
  // The calls of the last assistant message still without a result in `messages`.
  let unanswered: OpenAIToolCall[] = [];
  // The model's stream already told `onEvent` about its failure.
  let modelReportedError = false;
  // What the current model call has streamed: kept if the call fails (or is aborted) mid-answer.
  let streamed = new StreamedText();

  const emit = (event: AgentOutput) => {
    try {
      params.onEvent?.(event);
    } catch (error) {
      throw new CallbackFailure(error);
    }
  };

  function reportError(error: CairnError): void {
    emit({
      type: 'error',
      timestamp: now().toISOString(),
      code: error.code,
      message: error.message,
      retryable: error.retryable,
      fatal: true,
    });
  }

  function finish(error?: CairnError, reportedByModel = false): ChatToolLoopResult {
    if (error !== undefined && !reportedByModel) reportError(error);
    return loopResult(error);
  }

  function loopResult(error?: CairnError): ChatToolLoopResult {
    const reason: FinishReason =
      error?.code === 'LLM_ABORTED'
        ? 'aborted'
        : error !== undefined && turnUsages.length < turn
          ? 'error'
          : finishReason;
    const outcome = {
      ...(last === undefined ? {} : { message: last }),
      messages,
      usage: { turns: turnUsages, total },
      turns: turn,
      finishReason: reason,
    };
    return error === undefined
      ? { success: true, ...outcome, ...tracker.current }
      : { success: false, ...outcome, error, ...tracker.current };
  }

  async function callModel(): Promise<ModelResult> {
    const request: ModelRequest = {
      // A copy: the loop appends to `messages` while a recorded request must stay as it was sent.
      messages: messages.slice(),
      ...(tools.length === 0 ? {} : { tools }),
      ...(params.toolChoice === undefined ? {} : { toolChoice: params.toolChoice }),
      ...(params.settings === undefined ? {} : { settings: params.settings }),
      ...(params.providerOptions === undefined ? {} : { providerOptions: params.providerOptions }),
      ...(params.headers === undefined ? {} : { headers: params.headers }),
      ...(signal === undefined ? {} : { signal }),
    };
    if (!streaming) return model.generate(request);
    const stream = model.stream(request);
    for await (const event of stream) {
      if (event.type === 'error') modelReportedError = true;
      streamed.add(event);
      emit(event);
    }
    return stream.result;
  }

  async function pushToolResult(result: ToolCallResult, call: OpenAIToolCall): Promise<number> {
    // The model reads a bounded form: the whole output goes to the callback (to be stored) only.
    const content = toolOutputForModel({ content: result.content }, maxToolResultChars);
    const message: ModelToolMessage = { role: 'tool', tool_call_id: call.id, content };
    if (result.isError) message.isError = true;
    messages.push(message);
    unanswered = unanswered.filter((pending) => pending !== call);
    const createdAt = now().toISOString();
    emit({
      type: 'tool_result',
      timestamp: createdAt,
      toolUseId: call.id,
      toolName: result.toolName,
      output: result.content,
      isError: result.isError,
      durationMs: result.durationMs,
      ...(result.structured === undefined ? {} : { structured: result.structured as never }),
    });
    const shown: LoopToolMessage = {
      id: generateId(),
      createdAt,
      turn,
      role: 'tool',
      tool_call_id: call.id,
      content: result.content,
      toolName: result.toolName,
      duration: result.durationMs,
      isError: result.isError,
      ...(result.errorCode === undefined ? {} : { errorCode: result.errorCode }),
      ...(result.structured === undefined ? {} : { structured: result.structured }),
      ...(result.interrupted ? { interrupted: true } : {}),
    };
    const stored = await params.onToolMessage?.(shown);
    // As stored (a big output offloaded to its preview): what later turns built from the store send.
    if (stored) message.content = toolOutputForModel(stored, maxToolResultChars);
    return tracker.record(result, call.function.arguments);
  }

  /** Runs the calls; the `LOOP_STUCK` error when a failure repeated too often. */
  async function runCalls(calls: OpenAIToolCall[]): Promise<CairnError | undefined> {
    let stuck: CairnError | undefined;
    await runToolCalls(
      calls,
      concurrency,
      (call) => host.execute(call, execution),
      async (result, index) => {
        const repeats = await pushToolResult(result, calls[index] as OpenAIToolCall);
        if (repeats >= stuckThreshold && stuck === undefined) {
          stuck = new CairnError(
            'LOOP_STUCK',
            `${result.toolName} failed the same way ${repeats} times in a row (${result.errorCode ?? 'error'}: ${firstLine(result.content)}); the loop stopped instead of trying again.`,
          );
        }
      },
      () => tooling.abort(new CairnError('LLM_ABORTED', 'the loop stopped after a failure')),
    );
    return stuck;
  }

  // The user saw the answer stream until the abort (or the stream failing): it is kept, marked as cut
  // off, rather than lost.
  async function keepInterruptedAnswer(text: string, finishReason: FinishReason): Promise<void> {
    if (text.trim() === '') return;
    const assistant: ModelAssistantMessage = { role: 'assistant', content: text };
    messages.push(assistant);
    last = {
      ...assistant,
      id: generateId(),
      createdAt: now().toISOString(),
      turn,
      usage: NO_USAGE,
      finishReason,
      interrupted: true,
    };
    await params.onAssistantMessage?.(last);
  }

  // After a failure mid-turn: every call still unanswered gets an interrupted result.
  async function answerRemainingCalls(reason: string): Promise<void> {
    for (const call of unanswered) {
      try {
        await pushToolResult(interruptedToolResult(call, reason), call);
      } catch {
        // The callback failing again must not stop the log from being completed.
      }
    }
    unanswered = [];
  }

  try {
    while (turn < maxTurns) {
      if (signal?.aborted) return finish(new CairnError('LLM_ABORTED', 'the loop was aborted'));
      if (params.compressionPipeline !== undefined) {
        loopStartIndex = await compressHistory(params.compressionPipeline, messages, loopStartIndex);
      }
      turn++;
      await params.onTurnStart?.({ turn });
      let result: ModelResult;
      try {
        modelReportedError = false;
        streamed = new StreamedText();
        result = await callModel();
      } catch (error) {
        if (error instanceof CallbackFailure) throw error;
        // Adapters throw CairnErrors; anything else is an answer the loop could not use.
        const failure = toCairnError(error, 'LLM_BAD_RESPONSE');
        const ended = failure.code === 'LLM_ABORTED' ? 'aborted' : 'error';
        await keepInterruptedAnswer(streamed.text, ended);
        await params.onTurnEnd?.({ turn, usage: NO_USAGE, finishReason: ended, toolCalls: 0 });
        return finish(failure, modelReportedError);
      }
      turnUsages.push(result.usage);
      total = addTokenUsage(total, result.usage);
      finishReason = result.finishReason;
      const assistant = withUniqueCallIds(result.message);
      messages.push(assistant);
      const calls = assistant.tool_calls ?? [];
      unanswered = [...calls];
      last = {
        ...assistant,
        id: generateId(),
        createdAt: now().toISOString(),
        turn,
        usage: result.usage,
        finishReason: result.finishReason,
        ...(result.modelId === undefined ? {} : { modelId: result.modelId }),
      };
      await params.onAssistantMessage?.(last);
      const stuck = calls.length === 0 ? undefined : await runCalls(calls);
      await params.onTurnEnd?.({
        turn,
        usage: result.usage,
        finishReason: result.finishReason,
        toolCalls: calls.length,
      });
      if (calls.length === 0) return finish();
      if (signal?.aborted) return finish(new CairnError('LLM_ABORTED', 'the loop was aborted'));
      if (stuck !== undefined) return finish(stuck);
    }
    return finish(
      new CairnError(
        'LOOP_MAX_TURNS',
        `The model was still calling tools after ${maxTurns} turns; the loop stopped.`,
      ),
    );
  } catch (thrown) {
    // A callback (a persister, onEvent) or a custom tool host failed: the log is completed first.
    // A CairnError (a store that is down) is the loop's result; anything else is a bug, rethrown.
    const error = thrown instanceof CallbackFailure ? thrown.failure : thrown;
    tooling.abort(error);
    await answerRemainingCalls(error instanceof Error ? error.message : String(error));
    if (!CairnError.is(error)) throw error;
    try {
      reportError(error);
    } catch {
      // onEvent failing again on the error event: the failure it reported is already the result.
    }
    return loopResult(error);
  } finally {
    signal?.removeEventListener('abort', stopTools);
  }
}
