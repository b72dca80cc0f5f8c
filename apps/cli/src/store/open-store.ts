import { join } from 'node:path';
import type { ConversationStore } from '@cairn/core';
import { createFsConversationStore } from '@cairn/store-fs';
import { createPostgresConversationStore } from '@cairn/store-postgres';
import { createSqliteConversationStore } from '@cairn/store-sqlite';
import { cliFailure } from '../cli-error.js';

export type StoreKind = 'fs' | 'sqlite' | 'postgres';

export interface StoreSettings {
  store: StoreKind;
  /** Where the fs store and the SQLite file live. */
  dataDir: string;
  /** PostgreSQL only. */
  databaseUrl?: string;
}

/** Opens the configured store: files under the data dir (default), one SQLite file, or PostgreSQL. */
export function openStore(settings: StoreSettings): ConversationStore {
  switch (settings.store) {
    case 'fs':
      return createFsConversationStore({ rootDir: join(settings.dataDir, 'store') });
    case 'sqlite':
      return createSqliteConversationStore({ filename: join(settings.dataDir, 'conversations.db') });
    case 'postgres':
      if (settings.databaseUrl === undefined || settings.databaseUrl === '') {
        throw cliFailure(
          'INVALID_ARGUMENT',
          '--store postgres needs a database',
          'set DATABASE_URL (or --database-url) to a postgres:// connection string',
        );
      }
      return createPostgresConversationStore({ connectionString: settings.databaseUrl });
  }
}
