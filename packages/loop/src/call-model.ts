import { definedFields, type ModelRequest, type ModelResult } from '@cairn/core';
import type { LoopRun } from './loop-run.js';
import type { LoopState } from './loop-state.js';
import { StreamedText } from './streamed-text.js';

/** One model call with the messages so far, streamed to `onEvent` when the loop streams. */
export async function callModel(run: LoopRun, state: LoopState): Promise<ModelResult> {
  const { params, tools } = run;
  state.modelReportedError = false;
  state.streamed = new StreamedText();
  const request: ModelRequest = {
    // A copy: the loop appends to `messages` while a recorded request must stay as it was sent.
    messages: params.messages.slice(),
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
