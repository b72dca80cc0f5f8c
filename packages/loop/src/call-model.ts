import {
  type AgentOutput,
  definedFields,
  type ModelMessage,
  type ModelRequest,
  type ModelResult,
} from '@cairn/core';
import { modelFallbackOf } from '@cairn/provider-utils';
import { CallbackFailure, type LoopRun } from './loop-run.js';
import type { LoopState } from './loop-state.js';
import { parsePartialJson } from './parse-partial-json.js';
import { keepInterruptedAnswer } from './push-assistant-message.js';
import { StreamedText } from './streamed-text.js';
import { outputJsonText, withOutputInstruction } from './structured-output.js';

// The caller's `prepareMessages` failing is not the model's failure: it ends the loop as a callback's.
async function requestMessages({ params, output }: LoopRun): Promise<ModelMessage[]> {
  let messages = params.messages.slice();
  if (params.prepareMessages !== undefined) {
    try {
      messages = await params.prepareMessages(messages);
    } catch (error) {
      throw new CallbackFailure(error);
    }
  }
  return output === undefined || output.native ? messages : withOutputInstruction(messages, output.format);
}

// Structured output while it streams: the JSON parsed so far, each time it changes.
function emitPartialObject(
  run: LoopRun,
  state: LoopState,
  event: AgentOutput & { type: 'text_delta' },
): void {
  const object = parsePartialJson(outputJsonText(state.streamed.text));
  if (object === undefined) return;
  const json = JSON.stringify(object);
  if (json === state.partialSent) return;
  state.partialSent = json;
  run.emit({
    type: 'partial_object',
    timestamp: run.now().toISOString(),
    ...definedFields({ messageId: event.messageId, parentToolUseId: event.parentToolUseId }),
    object,
  });
}

/** One model call with the messages so far, streamed to `onEvent` when the loop streams. */
export async function callModel(run: LoopRun, state: LoopState): Promise<ModelResult> {
  const { params, tools, output } = run;
  state.modelReportedError = false;
  state.answering = undefined;
  state.streamed = new StreamedText();
  state.partialSent = undefined;
  const request: ModelRequest = {
    // A copy: the loop appends to `messages` while a recorded request must stay as it was sent.
    messages: await requestMessages(run),
    ...(tools.length === 0 ? {} : { tools }),
    ...(output?.native ? { output: output.format } : {}),
    ...definedFields({
      toolChoice: params.toolChoice,
      settings: params.settings,
      providerOptions: params.providerOptions,
      headers: params.headers,
      signal: params.signal,
    }),
  };
  const { model } = params;
  const call = {
    provider: model.provider,
    model: model.modelId,
    request,
    ...definedFields({ conversationId: params.context?.conversationId }),
  };
  return run.telemetry.modelCall(call, async (scope) => {
    const result = run.streaming ? await streamModel(run, state, request) : await model.generate(request);
    scope.end(result);
    return result;
  });
}

async function streamModel(run: LoopRun, state: LoopState, request: ModelRequest): Promise<ModelResult> {
  const { params, output } = run;
  const stream = params.model.stream(request);
  for await (const event of stream) {
    if (event.type === 'error') state.modelReportedError = true;
    const fallback = modelFallbackOf(event);
    if (fallback !== undefined) {
      // A fallback model switched: what streamed so far was the failed model's answer, cut off. It
      // is kept as such, and the next model's answer starts afresh.
      await keepInterruptedAnswer(run, state, 'error');
      state.answering = fallback.to;
      state.streamed = new StreamedText();
      state.partialSent = undefined;
    }
    state.streamed.add(event);
    run.emit(event);
    if (output !== undefined && event.type === 'text_delta') emitPartialObject(run, state, event);
  }
  return stream.result;
}
