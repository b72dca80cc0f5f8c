import { join } from 'node:path';
import { createFsConversationStore } from '@cairn/store-fs';
import { createSqliteConversationStore } from '@cairn/store-sqlite';

/**
 * The bench's store in `directory`: `fs` (@cairn/store-fs, the server's default) or `sqlite`
 * (@cairn/store-sqlite), each with its own default durability (`turn`) unless one is given.
 */
export function openStore({ kind, durability }, directory) {
  const options = durability === undefined ? {} : { durability };
  if (kind === 'sqlite') {
    return createSqliteConversationStore({ filename: join(directory, 'conversations.db'), ...options });
  }
  return createFsConversationStore({ rootDir: directory, ...options });
}

/** `fs`, `fs:none`, `sqlite`, `sqlite:append`, … as `{ kind, durability? }`. */
export function parseStore(text) {
  const [kind, durability] = text.split(':');
  if (kind !== 'fs' && kind !== 'sqlite') throw new Error(`BENCH_STORE: fs or sqlite, got ${kind}`);
  return durability === undefined ? { kind } : { kind, durability };
}

export const describeStore = ({ kind, durability }) =>
  `${kind === 'fs' ? '@cairn/store-fs' : '@cairn/store-sqlite'} in a temp dir, durability ${durability ?? 'turn (default)'}`;
