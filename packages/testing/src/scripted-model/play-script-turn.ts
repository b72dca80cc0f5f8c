import { abortableSleep, type StreamSink } from '@cairn/provider-utils';
import { chunkString, type ResolvedScriptTurn } from '../resolve-script-turn.js';
import type { ScriptTurn } from '../script-turn.js';
import { cutStreamError, malformedStreamError } from './script-fault-error.js';

export interface PlayOptions {
  provider: string;
  responseId: string;
  modelId: string;
  /** Streaming honours the timing and stream faults; a non-streaming answer arrives at once, whole. */
  streaming: boolean;
  signal?: AbortSignal;
}

/**
 * Reports one resolved turn to `sink` the way an adapter reports a provider response: one step
 * per streamed piece, so `cutAfterEvents` / `malformedAfterEvents` fail after that many pieces.
 */
export async function playScriptTurn(
  sink: StreamSink,
  script: ScriptTurn,
  turn: ResolvedScriptTurn,
  options: PlayOptions,
): Promise<void> {
  const steps: Array<() => void> = [
    () => sink.start({ responseId: options.responseId, modelId: options.modelId }),
  ];
  for (const piece of chunkString(turn.reasoning ?? '', turn.chunkSize)) {
    steps.push(() => sink.reasoningDelta('reasoning', piece));
  }
  if (turn.reasoning) steps.push(() => sink.reasoningEnd('reasoning'));
  for (const piece of chunkString(turn.text ?? '', turn.chunkSize))
    steps.push(() => sink.textDelta('text', piece));
  if (turn.text) steps.push(() => sink.textEnd('text'));
  for (const call of turn.toolCalls) {
    steps.push(() => sink.toolCallStart(call.id, call.name));
    for (const piece of chunkString(call.arguments, turn.chunkSize)) {
      steps.push(() => sink.toolInputDelta(call.id, piece));
    }
    steps.push(() => sink.toolCallEnd(call.id));
  }
  steps.push(() => sink.usage(turn.usage));
  steps.push(() => sink.finish(turn.finish, turn.finish));

  for (const [index, step] of steps.entries()) {
    if (options.streaming) {
      if (index === script.cutAfterEvents) throw cutStreamError(options.provider);
      if (index === script.malformedAfterEvents) throw malformedStreamError(options.provider);
      if (index > 0 && script.chunkDelayMs) await abortableSleep(script.chunkDelayMs, options.signal);
    }
    step();
  }
}
