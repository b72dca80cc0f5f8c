import type { ConversationStore, Tool } from '@cairn/core';
import type { RuntimeSettings } from '../src/runtime-types.js';
import { createTurnEnvironment, type TurnEnvironment } from '../src/turn-environment.js';

/** The turn environment `createAgentRuntime` builds, for the run API's tests. */
export function runTurnEnvironment(
  store: ConversationStore,
  options: { tools?: readonly Tool[]; settings?: RuntimeSettings } = {},
): TurnEnvironment {
  return createTurnEnvironment({
    store,
    ...(options.tools === undefined ? {} : { tools: options.tools }),
    ...(options.settings === undefined ? {} : { settings: options.settings }),
  });
}
