import { timeoutFactor } from '@cairn/vitest-config/load';
import { describeConversationStoreConformance } from '../testkit/index.js';
import { createMemoryConversationStore } from './memory-conversation-store.js';

describeConversationStoreConformance({
  name: 'memory',
  timeoutFactor: timeoutFactor(),
  factory: {
    createLocation: async () => null,
    openStore: async () => createMemoryConversationStore(),
  },
});
