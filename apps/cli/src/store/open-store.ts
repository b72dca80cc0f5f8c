import { join } from 'node:path';
import type { ConversationStore } from '@cairn/core';
import type { QuarantineReport } from '@cairn/store-fs';
import { cliFailure } from '../cli-error.js';

export type StoreKind = 'fs' | 'sqlite' | 'postgres';

export interface StoreSettings {
  store: StoreKind;
  /** Where the fs store and the SQLite file live. */
  dataDir: string;
  /** PostgreSQL only. */
  databaseUrl?: string;
}

/**
 * Opens the configured store: files under the data dir (default), one SQLite file, or PostgreSQL.
 * Only that backend is loaded (a native SQLite binding or a database driver is not free to load).
 */
export async function openStore(
  settings: StoreSettings,
  options: { onQuarantine?: (report: QuarantineReport) => void } = {},
): Promise<ConversationStore> {
  switch (settings.store) {
    case 'fs': {
      const { createFsConversationStore } = await import('@cairn/store-fs');
      return createFsConversationStore({
        rootDir: join(settings.dataDir, 'store'),
        ...(options.onQuarantine === undefined ? {} : { onQuarantine: options.onQuarantine }),
      });
    }
    case 'sqlite': {
      const { createSqliteConversationStore } = await import('@cairn/store-sqlite');
      return createSqliteConversationStore({ filename: join(settings.dataDir, 'conversations.db') });
    }
    case 'postgres': {
      if (settings.databaseUrl === undefined || settings.databaseUrl === '') {
        throw cliFailure(
          'INVALID_ARGUMENT',
          '--store postgres needs a database',
          'set DATABASE_URL (or --database-url) to a postgres:// connection string',
        );
      }
      const { createPostgresConversationStore } = await import('@cairn/store-postgres');
      return createPostgresConversationStore({ connectionString: settings.databaseUrl });
    }
  }
}
