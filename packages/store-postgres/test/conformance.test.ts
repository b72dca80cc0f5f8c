import { describeConversationStoreConformance } from '@cairn/storage/testkit';
import { timeoutFactor } from '@cairn/vitest-config/load';
import * as factory from './store-factory.mjs';

// The whole kit against a real PostgreSQL, each case in its own schema. The process cases run 8
// writer processes × 1,000 appends on one conversation, each process with its own pool.
describeConversationStoreConformance({
  name: 'postgres',
  timeoutFactor: timeoutFactor(),
  factory,
  processes: {
    factoryModule: new URL('./store-factory.mjs', import.meta.url),
    writers: 8,
    appendsPerWriter: 1000,
    crashTrials: 20,
  },
});
