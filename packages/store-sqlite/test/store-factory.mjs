// The StoreFactory of the conformance kit, as plain JavaScript over the built package: the
// multi-process cases import it in child processes. A location is a temp directory holding one file,
// and the driver that opens it (none: the default).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteConversationStore } from '../dist/index.js';

export async function createLocation(driver) {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-store-sqlite-'));
  return driver === undefined
    ? { dir, filename: join(dir, 'cairn.db') }
    : { dir, filename: join(dir, 'cairn.db'), driver };
}

export async function openStore(location) {
  const { filename, driver } = location;
  return createSqliteConversationStore(driver === undefined ? { filename } : { filename, driver });
}

export async function destroyLocation(location) {
  await rm(location.dir, { recursive: true, force: true });
}
