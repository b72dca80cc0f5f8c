import { describeConversationStoreConformance } from '@cairn/storage/testkit';
import { timeoutFactor } from '@cairn/vitest-config/load';
import * as factory from './store-factory.mjs';

describeConversationStoreConformance({
  name: 'fs',
  timeoutFactor: timeoutFactor(),
  factory,
  processes: {
    factoryModule: new URL('./store-factory.mjs', import.meta.url),
    writers: 8,
    appendsPerWriter: 1000,
    crashTrials: 50,
  },
});
