import { createRequire } from 'node:module';
import { CairnError } from '@cairn/core';
import type BetterSqlite3 from 'better-sqlite3';
import type { Database as BetterSqlite3Database } from 'better-sqlite3';
import { betterSqlite3Connection } from './better-sqlite3-connection.js';
import {
  type NodeSqliteDatabase,
  type NodeSqliteModule,
  nodeSqliteConnection,
} from './node-sqlite-connection.js';
import type { SqliteConnection, SqliteDriver } from './sqlite-connection.js';
import { toStoreError } from './sqlite-error.js';

/** Which driver opens a `filename`: `auto` takes better-sqlite3 when it is installed, else `node:sqlite`. */
export type SqliteDriverChoice = SqliteDriver | 'auto';

/** Where the drivers come from; each gives `undefined` when this install or Node has none. */
export interface SqliteDriverModules {
  betterSqlite3(): typeof BetterSqlite3 | undefined;
  nodeSqlite(): NodeSqliteModule | undefined;
}

const require = createRequire(import.meta.url);

/** The drivers of this Node and this install: better-sqlite3 is an optional peer dependency. */
export const installedDrivers: SqliteDriverModules = {
  betterSqlite3: () => {
    try {
      // Resolving only finds the package itself: a broken install still fails loudly below.
      require.resolve('better-sqlite3');
    } catch (error) {
      if ((error as { code?: unknown }).code === 'MODULE_NOT_FOUND') return undefined;
      throw error;
    }
    return require('better-sqlite3') as typeof BetterSqlite3;
  },
  // Node >= 22.13 and 23.4 have it without a flag (22.5+ with --experimental-sqlite); Node 20 has none.
  nodeSqlite: () => process.getBuiltinModule('node:sqlite') as NodeSqliteModule | undefined,
};

const NODE_SQLITE_FIX = 'use Node >= 22.13 (node:sqlite is built in)';
const BETTER_SQLITE3_FIX = 'run: npm install better-sqlite3';

// What is missing for each choice, and the ways out: install better-sqlite3, or a Node with node:sqlite.
const MISSING: Record<SqliteDriverChoice, { message: string; packageName: string; fix: string }> = {
  'better-sqlite3': {
    message: "The sqlite store's better-sqlite3 driver needs better-sqlite3, which is not installed",
    packageName: 'better-sqlite3',
    fix: `${BETTER_SQLITE3_FIX}, or ${NODE_SQLITE_FIX} with driver 'node:sqlite'`,
  },
  'node:sqlite': {
    message: `The sqlite store's node:sqlite driver needs Node >= 22.13, this is ${process.version}`,
    packageName: 'node:sqlite',
    fix: `${NODE_SQLITE_FIX}, or ${BETTER_SQLITE3_FIX} and use driver 'better-sqlite3'`,
  },
  auto: {
    message: `The sqlite store needs better-sqlite3 or node:sqlite: better-sqlite3 is not installed and Node ${process.version} has no node:sqlite`,
    packageName: 'better-sqlite3',
    fix: `${BETTER_SQLITE3_FIX}, or ${NODE_SQLITE_FIX}`,
  },
};

function driverMissing(driver: SqliteDriverChoice): CairnError {
  const { message, packageName, fix } = MISSING[driver];
  return new CairnError('PACKAGE_MISSING', message, {
    retryable: false,
    details: { packageName, fix, driver },
  });
}

/** Opens `filename` with the chosen driver; a busy connection waits `busyTimeoutMs` for the lock. */
export function openSqliteConnection(
  filename: string,
  choice: SqliteDriverChoice,
  busyTimeoutMs: number,
  modules: SqliteDriverModules = installedDrivers,
): SqliteConnection {
  const Database = choice === 'node:sqlite' ? undefined : modules.betterSqlite3();
  const nodeSqlite = choice === 'better-sqlite3' || Database !== undefined ? undefined : modules.nodeSqlite();
  try {
    if (Database !== undefined)
      return betterSqlite3Connection(new Database(filename, { timeout: busyTimeoutMs }));
    if (nodeSqlite !== undefined) {
      return nodeSqliteConnection(new nodeSqlite.DatabaseSync(filename, { timeout: busyTimeoutMs }));
    }
  } catch (error) {
    throw toStoreError(error, `opening ${filename}`);
  }
  throw driverMissing(choice);
}

/** A connection the caller opened, with either driver. */
export function wrapSqliteDatabase(database: BetterSqlite3Database | NodeSqliteDatabase): SqliteConnection {
  // Only better-sqlite3 has pragma().
  return 'pragma' in database
    ? betterSqlite3Connection(database)
    : nodeSqliteConnection(database as NodeSqliteDatabase);
}
