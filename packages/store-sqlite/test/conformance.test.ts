import { describeConversationStoreConformance } from '@cairn/storage/testkit';
import { timeoutFactor } from '@cairn/vitest-config/load';
import * as factory from '../test/store-factory.mjs';

describeConversationStoreConformance({
  name: 'sqlite',
  timeoutFactor: timeoutFactor(),
  factory,
  processes: {
    factoryModule: new URL('../test/store-factory.mjs', import.meta.url),
    writers: 8,
    appendsPerWriter: 1000,
    crashTrials: 50,
  },
});
