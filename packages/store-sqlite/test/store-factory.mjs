// The StoreFactory of the conformance kit, as plain JavaScript over the built package: the
// multi-process cases import it in child processes. A location is a temp directory holding one file.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteConversationStore } from '../dist/index.js';

export async function createLocation() {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-store-sqlite-'));
  return { dir, filename: join(dir, 'cairn.db') };
}

export async function openStore(location) {
  return createSqliteConversationStore({ filename: location.filename });
}

export async function destroyLocation(location) {
  await rm(location.dir, { recursive: true, force: true });
}
