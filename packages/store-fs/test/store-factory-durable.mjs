// The file store with durability 'append': every log is preallocated (zero padding after its
// records), so the kit's crash and multi-process cases run against padded logs too.
import { createFsConversationStore } from '../dist/index.js';

import { CONTENDED_LOCK_TIMEOUT_MS } from './store-factory.mjs';

export { createLocation, destroyLocation } from './store-factory.mjs';

export async function openStore(location) {
  return createFsConversationStore({
    rootDir: location.rootDir,
    durability: 'append',
    lockTimeoutMs: CONTENDED_LOCK_TIMEOUT_MS,
  });
}
