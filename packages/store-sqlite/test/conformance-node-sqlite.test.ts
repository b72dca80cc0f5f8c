// The whole conformance kit again on the node:sqlite driver, where this Node has it (>= 22.13).
import { describeConversationStoreConformance } from '@cairn/storage/testkit';
import { timeoutFactor } from '@cairn/vitest-config/load';
import { describe } from 'vitest';
import * as factory from '../test/store-factory.mjs';

const available = process.getBuiltinModule('node:sqlite') !== undefined;
const title = available
  ? 'the node:sqlite driver'
  : `the node:sqlite driver (skipped: Node ${process.version} has no node:sqlite, it needs >= 22.13)`;

describe.skipIf(!available)(title, () => {
  describeConversationStoreConformance({
    name: 'sqlite on node:sqlite',
    timeoutFactor: timeoutFactor(),
    factory: { ...factory, createLocation: () => factory.createLocation('node:sqlite') },
    processes: {
      factoryModule: new URL('../test/store-factory.mjs', import.meta.url),
      writers: 8,
      appendsPerWriter: 1000,
      crashTrials: 50,
    },
  });
});
