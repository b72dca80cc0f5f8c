import {
  addTokenUsage,
  definedFields,
  type FinishReason,
  type ModelAssistantMessage,
  type ModelResult,
  type OpenAIToolCall,
  type ProviderMetadata,
} from '@cairn/core';
import { type AnsweringModel, answeredBy } from '@cairn/provider-utils';
import type { LoopRun } from './loop-run.js';
import { type LoopState, NO_USAGE } from './loop-state.js';

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

// Which model answered, for the log (`providerMetadata.cairn`): the one a fallback model names, else
// the loop's. Only the message handed to the callbacks gets it: the request keeps the model's own.
function withAnsweringModel(
  metadata: ProviderMetadata | undefined,
  answering: AnsweringModel,
): ProviderMetadata {
  return { ...metadata, cairn: { ...metadata?.cairn, ...answering } };
}

function loopModel(run: LoopRun, state: LoopState, modelId?: string): AnsweringModel {
  return (
    state.answering ?? { provider: run.params.model.provider, model: modelId ?? run.params.model.modelId }
  );
}

/** Pushes the model's answer and hands it to `onAssistantMessage`; returns its calls, all unanswered. */
export async function pushModelAnswer(
  run: LoopRun,
  state: LoopState,
  result: ModelResult,
): Promise<OpenAIToolCall[]> {
  state.awaitingModel = false;
  state.turnUsages.push(result.usage);
  state.total = addTokenUsage(state.total, result.usage);
  state.finishReason = result.finishReason;
  const assistant = withUniqueCallIds(result.message);
  run.params.messages.push(assistant);
  const calls = assistant.tool_calls ?? [];
  state.unanswered = [...calls];
  state.last = {
    ...assistant,
    id: run.generateId(),
    createdAt: run.now().toISOString(),
    turn: state.turn,
    usage: result.usage,
    finishReason: result.finishReason,
    ...definedFields({ modelId: result.modelId }),
    providerMetadata: withAnsweringModel(
      assistant.providerMetadata,
      answeredBy(assistant) ?? loopModel(run, state, result.modelId),
    ),
  };
  await run.params.onAssistantMessage?.(state.last);
  return calls;
}

// The user saw the answer stream until the abort (or the stream failing): it is kept, marked as cut
// off, rather than lost.
export async function keepInterruptedAnswer(
  run: LoopRun,
  state: LoopState,
  finishReason: FinishReason,
): Promise<void> {
  const text = state.streamed.text;
  if (text.trim() === '') return;
  const assistant: ModelAssistantMessage = { role: 'assistant', content: text };
  run.params.messages.push(assistant);
  state.last = {
    ...assistant,
    id: run.generateId(),
    createdAt: run.now().toISOString(),
    turn: state.turn,
    usage: NO_USAGE,
    finishReason,
    interrupted: true,
    providerMetadata: withAnsweringModel(undefined, loopModel(run, state)),
  };
  await run.params.onAssistantMessage?.(state.last);
}
