import { join } from 'node:path';
import { CairnError, type ConversationStore, definedFields } from '@cairn/core';
import type { QuarantineReport } from '@cairn/store-fs';
import { importOptionalPackage } from './import-optional-package.js';
import { prepareDataDir } from './prepare-data-dir.js';
import { type SettingNames, settingNames, withValue } from './setting-names.js';
import { STORE_KINDS, type StoreSettings } from './store-settings.js';

export interface OpenStoreOptions {
  /** fs store: a damaged log line was moved aside (default: a warning). */
  onQuarantine?: (report: QuarantineReport) => void;
  /** How the user gives each setting, as errors name it. Default: the CLI's flags. */
  names?: Partial<SettingNames>;
}

/**
 * Opens the configured store: files under `<dataDir>/store` (the default), one SQLite file
 * `<dataDir>/conversations.db`, or PostgreSQL. Only that backend is loaded (a native SQLite
 * binding or a database driver is not free to load); the SQLite and PostgreSQL ones are optional
 * peers, `PACKAGE_MISSING` when not installed. The data directory is created when missing;
 * one that cannot hold the store is `STORE_UNAVAILABLE` with a fix. The caller closes the store.
 */
export async function openStore(
  settings: StoreSettings,
  options: OpenStoreOptions = {},
): Promise<ConversationStore> {
  switch (settings.store) {
    case 'fs': {
      prepareDataDir(settings.dataDir, settingNames(options.names).dataDir);
      const { createFsConversationStore } = await import('@cairn/store-fs');
      return createFsConversationStore({
        rootDir: join(settings.dataDir, 'store'),
        ...definedFields({ onQuarantine: options.onQuarantine }),
      });
    }
    case 'sqlite': {
      prepareDataDir(settings.dataDir, settingNames(options.names).dataDir);
      const { createSqliteConversationStore } = await importOptionalPackage(
        '@cairn/store-sqlite',
        'the sqlite store',
        () => import('@cairn/store-sqlite'),
      );
      return createSqliteConversationStore({ filename: join(settings.dataDir, 'conversations.db') });
    }
    case 'postgres': {
      if (settings.databaseUrl === undefined || settings.databaseUrl.trim() === '') {
        const names = settingNames(options.names);
        const orName = names.databaseUrl === 'DATABASE_URL' ? '' : ` (or ${names.databaseUrl})`;
        throw new CairnError('INVALID_ARGUMENT', `${withValue(names.store, 'postgres')} needs a database`, {
          details: { fix: `set DATABASE_URL${orName} to a postgres:// connection string` },
        });
      }
      const { createPostgresConversationStore } = await importOptionalPackage(
        '@cairn/store-postgres',
        'the postgres store',
        () => import('@cairn/store-postgres'),
      );
      return createPostgresConversationStore({ connectionString: settings.databaseUrl });
    }
    default: {
      // Settings from plain JavaScript or an unchecked config can name anything.
      const { store } = settingNames(options.names);
      throw new CairnError(
        'INVALID_ARGUMENT',
        `${store} must be one of ${STORE_KINDS.join(', ')}, got ${JSON.stringify(settings.store as unknown)}`,
      );
    }
  }
}
