import { CairnError } from '@cairn/core';
import type { Database } from 'better-sqlite3';
import type { NodeSqliteDatabase } from './node-sqlite-connection.js';
import type { SqliteDriverChoice } from './open-sqlite-connection.js';

/**
 * When an acknowledged append is safe from a power loss or an OS crash (a crash of the process
 * itself never loses an acknowledged append in any mode: the data is in the OS already).
 * - `append`: every commit is fsynced before `append` returns.
 * - `turn`: WAL with `synchronous=NORMAL`: the database is never corrupted, but the last commits
 *   before a power loss may be lost (they are durable once checkpointed).
 * - `none`: no fsync at all; a power loss may corrupt the database. For scratch data.
 */
export type SqliteDurability = 'none' | 'turn' | 'append';

/** The SQLite `synchronous` setting each durability maps to. */
export const SYNCHRONOUS_BY_DURABILITY: Readonly<Record<SqliteDurability, 'OFF' | 'NORMAL' | 'FULL'>> = {
  none: 'OFF',
  turn: 'NORMAL',
  append: 'FULL',
};

export const DEFAULT_DURABILITY: SqliteDurability = 'turn';
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;
export const DEFAULT_DRIVER: SqliteDriverChoice = 'auto';
const DRIVERS: readonly SqliteDriverChoice[] = ['auto', 'better-sqlite3', 'node:sqlite'];

/** The options of either form of `SqliteConversationStoreOptions`. */
export interface SqliteStoreCommonOptions {
  /** Default `turn`. */
  durability?: SqliteDurability;
  /** How long a write waits for another connection's write lock before `STORE_UNAVAILABLE`. Default 5000. */
  busyTimeoutMs?: number;
}

/** Either a database file (created if missing; `:memory:` for a private in-memory one) or an open connection. */
export type SqliteConversationStoreOptions =
  | (SqliteStoreCommonOptions & {
      filename: string;
      database?: undefined;
      /**
       * The library that opens `filename`. Default `auto`: better-sqlite3 when it is installed,
       * else Node's built-in `node:sqlite` (Node >= 22.13).
       */
      driver?: SqliteDriverChoice;
    })
  | (SqliteStoreCommonOptions & {
      /**
       * A connection you own, a better-sqlite3 `Database` or a `node:sqlite` `DatabaseSync`: the
       * store sets its pragmas and migrates it, but `close()` leaves it open.
       */
      database: Database | NodeSqliteDatabase;
      filename?: undefined;
      driver?: undefined;
    });

/** The options checked, with defaults applied. */
export interface NormalizedSqliteOptions {
  synchronous: 'OFF' | 'NORMAL' | 'FULL';
  busyTimeoutMs: number;
  driver: SqliteDriverChoice;
}

export function normalizeSqliteOptions(options: SqliteConversationStoreOptions): NormalizedSqliteOptions {
  const {
    durability = DEFAULT_DURABILITY,
    busyTimeoutMs = DEFAULT_BUSY_TIMEOUT_MS,
    driver = DEFAULT_DRIVER,
  } = options;
  if (!Object.hasOwn(SYNCHRONOUS_BY_DURABILITY, durability)) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `durability must be "none", "turn" or "append", got ${String(durability)}`,
    );
  }
  if (!(Number.isSafeInteger(busyTimeoutMs) && busyTimeoutMs >= 0)) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `busyTimeoutMs must be a non-negative integer, got ${String(busyTimeoutMs)}`,
    );
  }
  if ((options.filename === undefined) === (options.database === undefined)) {
    throw new CairnError('INVALID_ARGUMENT', 'Give exactly one of filename and database');
  }
  if (!DRIVERS.includes(driver)) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `driver must be "auto", "better-sqlite3" or "node:sqlite", got ${String(driver)}`,
    );
  }
  if (options.database !== undefined && options.driver !== undefined) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      'driver goes with filename: a database you pass is its own driver',
    );
  }
  return { synchronous: SYNCHRONOUS_BY_DURABILITY[durability], busyTimeoutMs, driver };
}
