import { join } from 'node:path';
import { createMemoryConversationStore } from '@cairn/storage';
import { createFsConversationStore } from '@cairn/store-fs';
import { createSqliteConversationStore } from '@cairn/store-sqlite';

/**
 * The bench's store in `directory`: `memory` (@cairn/storage's in-memory store), `fs`
 * (@cairn/store-fs, the server's default) or `sqlite` (@cairn/store-sqlite), the persistent ones with
 * their own default durability (`turn`) unless one is given.
 */
export function openStore({ kind, durability }, directory) {
  const options = durability === undefined ? {} : { durability };
  if (kind === 'memory') return createMemoryConversationStore();
  if (kind === 'sqlite') {
    return createSqliteConversationStore({ filename: join(directory, 'conversations.db'), ...options });
  }
  return createFsConversationStore({ rootDir: directory, ...options });
}

/** `memory`, `fs`, `fs:none`, `sqlite`, `sqlite:append`, … as `{ kind, durability? }`. */
export function parseStore(text) {
  const [kind, durability] = text.split(':');
  if (kind !== 'fs' && kind !== 'sqlite' && kind !== 'memory') {
    throw new Error(`a bench store is memory, fs or sqlite, got ${kind}`);
  }
  return durability === undefined ? { kind } : { kind, durability };
}

/** Whether the store outlives the server process (then it is opened again to count what it holds). */
export const persists = ({ kind }) => kind !== 'memory';

export const describeStore = ({ kind, durability }) =>
  kind === 'memory'
    ? '@cairn/storage in-memory store'
    : `${kind === 'fs' ? '@cairn/store-fs' : '@cairn/store-sqlite'} in a temp dir, durability ${durability ?? 'turn (default)'}`;
