import { createAgentRuntime } from '@cairn/runtime';
import { createMemoryConversationStore } from '@cairn/storage';
import { ScriptedModel } from '@cairn/testing';
import type { ServerAppOptions } from '../../src/app/create-server-app.js';
import { createInProcessEventBus } from '../../src/events/in-process-event-bus.js';
import { createInProcessTurnLock } from '../../src/turn-lock/in-process-turn-lock.js';

/** What `createServerApp` needs, in memory, with a model that has nothing to say (for option checks). */
export function inProcessAppParts(): Pick<ServerAppOptions, 'store' | 'runtime' | 'events' | 'turnLock'> {
  const store = createMemoryConversationStore();
  return {
    store,
    runtime: createAgentRuntime({
      store,
      model: new ScriptedModel({ turns: [] }),
      settings: { compression: false },
    }),
    events: createInProcessEventBus(),
    turnLock: createInProcessTurnLock(),
  };
}
