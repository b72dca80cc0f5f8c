import { describeConversationStoreConformance } from '@cairn/storage/testkit';
import { timeoutFactor } from '@cairn/vitest-config/load';
import * as factory from './store-factory-durable.mjs';

// Fewer processes and trials than the main run: every append here waits for the disk.
describeConversationStoreConformance({
  name: "fs, durability 'append'",
  timeoutFactor: timeoutFactor(),
  factory,
  processes: {
    factoryModule: new URL('./store-factory-durable.mjs', import.meta.url),
    writers: 4,
    appendsPerWriter: 250,
    crashTrials: 20,
  },
});
