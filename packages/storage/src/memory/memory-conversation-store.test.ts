import { describeConversationStoreConformance } from '../testkit/index.js';
import { createMemoryConversationStore } from './memory-conversation-store.js';

describeConversationStoreConformance({
  name: 'memory',
  factory: {
    createLocation: async () => null,
    openStore: async () => createMemoryConversationStore(),
  },
});
