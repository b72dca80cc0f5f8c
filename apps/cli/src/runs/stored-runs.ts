import { CairnError, type ConversationStore, type ModelAdapter } from '@cairn/core';
import { createAgentRuntime, type RunApi } from '@cairn/runtime';

const refused = () => new CairnError('INVALID_ARGUMENT', 'reading runs does not call a model');

// Reading runs needs the store only; a model is never called for it, so none has to be configured.
const NO_MODEL: ModelAdapter = {
  provider: 'none',
  modelId: 'none',
  capabilities: { streaming: false, toolCalls: false, parallelToolCalls: false, reasoning: false },
  generate: () => Promise.reject(refused()),
  stream: () => {
    throw refused();
  },
};

/** The run API over a store, for `runs list` and `runs show`. */
export function storedRuns(store: ConversationStore): Pick<RunApi, 'get' | 'list'> {
  return createAgentRuntime({ store, model: NO_MODEL, settings: { compression: false } }).runs;
}
