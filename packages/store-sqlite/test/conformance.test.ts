import { describeConversationStoreConformance } from '@cairn/storage/testkit';
import * as factory from '../test/store-factory.mjs';

describeConversationStoreConformance({
  name: 'sqlite',
  factory,
  processes: {
    factoryModule: new URL('../test/store-factory.mjs', import.meta.url),
    writers: 8,
    appendsPerWriter: 1000,
    crashTrials: 50,
  },
});
