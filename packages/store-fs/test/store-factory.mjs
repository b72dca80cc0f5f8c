// The StoreFactory of the conformance kit for the file store. Plain JavaScript over the built
// package, because the kit's multi-process tests import it in child processes.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFsConversationStore } from '../dist/index.js';

// Eight writer processes take turns on one lock thousands of times: on a loaded CI machine one can
// wait longer than the default 10 s. The tests check what is stored, not how long the lock took.
export const CONTENDED_LOCK_TIMEOUT_MS = 60_000;

export async function createLocation() {
  return { rootDir: await mkdtemp(join(tmpdir(), 'cairn-store-fs-')) };
}

export async function openStore(location) {
  return createFsConversationStore({
    rootDir: location.rootDir,
    durability: 'none',
    lockTimeoutMs: CONTENDED_LOCK_TIMEOUT_MS,
  });
}

export async function destroyLocation(location) {
  await rm(location.rootDir, { recursive: true, force: true });
}
