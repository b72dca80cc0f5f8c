import { describeConversationStoreConformance } from '@cairn/storage/testkit';
import * as factory from './store-factory.mjs';

describeConversationStoreConformance({
  name: 'fs',
  factory,
  processes: {
    factoryModule: new URL('./store-factory.mjs', import.meta.url),
    writers: 8,
    appendsPerWriter: 1000,
    crashTrials: 50,
  },
});
