import { type ConversationStore, definedFields, type Tool } from '@cairn/core';
import type { RuntimeSettings } from '../src/runtime-types.js';
import { createTurnEnvironment, type TurnEnvironment } from '../src/turn-environment.js';

/** The turn environment `createAgentRuntime` builds, for the run API's tests. */
export function runTurnEnvironment(
  store: ConversationStore,
  options: { tools?: readonly Tool[]; settings?: RuntimeSettings } = {},
): TurnEnvironment {
  return createTurnEnvironment({
    store,
    ...definedFields({ tools: options.tools, settings: options.settings }),
  });
}
