import { definedFields, type ModelMessage, type ModelRequest, type ModelResult } from '@cairn/core';
import { CallbackFailure, type LoopRun } from './loop-run.js';
import type { LoopState } from './loop-state.js';
import { StreamedText } from './streamed-text.js';

// The caller's `prepareMessages` failing is not the model's failure: it ends the loop as a callback's.
async function requestMessages({ params }: LoopRun): Promise<ModelMessage[]> {
  const messages = params.messages.slice();
  if (params.prepareMessages === undefined) return messages;
  try {
    return await params.prepareMessages(messages);
  } catch (error) {
    throw new CallbackFailure(error);
  }
}

/** One model call with the messages so far, streamed to `onEvent` when the loop streams. */
export async function callModel(run: LoopRun, state: LoopState): Promise<ModelResult> {
  const { params, tools } = run;
  state.modelReportedError = false;
  state.streamed = new StreamedText();
  const request: ModelRequest = {
    // A copy: the loop appends to `messages` while a recorded request must stay as it was sent.
    messages: await requestMessages(run),
    ...(tools.length === 0 ? {} : { tools }),
    ...definedFields({
      toolChoice: params.toolChoice,
      settings: params.settings,
      providerOptions: params.providerOptions,
      headers: params.headers,
      signal: params.signal,
    }),
  };
  if (!run.streaming) return params.model.generate(request);
  const stream = params.model.stream(request);
  for await (const event of stream) {
    if (event.type === 'error') state.modelReportedError = true;
    state.streamed.add(event);
    run.emit(event);
  }
  return stream.result;
}
