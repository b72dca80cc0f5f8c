import { CairnError } from '@cairn/core';
import { Pool, type PoolConfig } from 'pg';

/** How `createPostgresConversationStore` reaches the database: give at most one of `connectionString`, `pool`, `config`. */
export interface PostgresStoreOptions {
  /** A `postgres://` URL. Default: `process.env.DATABASE_URL`. */
  connectionString?: string;
  /** A pool the caller owns: the store uses it and never ends it (`close()` leaves it open). */
  pool?: Pool;
  /** Settings of a pool the store creates (and ends on `close()`). */
  config?: PoolConfig;
  /** The schema holding the store's tables, created if missing. Default `public`. */
  schema?: string;
  /** Size of the pool the store creates (pg's `max`, default 10). Not allowed with `pool`. */
  maxConnections?: number;
}

/** What the store runs on, once the options are checked. */
export interface ResolvedPostgresStoreOptions {
  pool: Pool;
  /** Whether `close()` ends the pool. */
  ownsPool: boolean;
  schema: string;
}

/** A plain, lower-case PostgreSQL identifier: it is quoted anyway, but must be the name the user expects. */
export const SCHEMA_NAME_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;

function invalid(message: string): CairnError {
  return new CairnError('INVALID_ARGUMENT', message);
}

function checkSchema(schema: unknown): string {
  if (typeof schema === 'string' && SCHEMA_NAME_PATTERN.test(schema)) return schema;
  throw invalid(
    `schema must match ${SCHEMA_NAME_PATTERN} (lower-case letters, digits, _), got ${JSON.stringify(schema)}`,
  );
}

function checkMaxConnections(value: number | undefined): void {
  if (value === undefined || (Number.isSafeInteger(value) && value >= 1)) return;
  throw invalid(`maxConnections must be a positive integer, got ${String(value)}`);
}

function createPool(config: PoolConfig, maxConnections: number | undefined): Pool {
  // An unreachable host fails in seconds, not after the OS's TCP timeout.
  const withTimeout = { connectionTimeoutMillis: 10_000, ...config };
  const pool = new Pool(maxConnections === undefined ? withTimeout : { ...withTimeout, max: maxConnections });
  // An idle client whose connection drops (server restart, admin shutdown) is emitted as 'error' on the
  // pool, and an unhandled 'error' event would crash the process. The pool already discards that
  // client and the next query reconnects, so there is nothing else to do here.
  pool.on('error', () => undefined);
  return pool;
}

/** Checks the options and opens (or adopts) the pool; throws `INVALID_ARGUMENT` with what to fix. */
export function resolvePostgresStoreOptions(
  options: PostgresStoreOptions = {},
): ResolvedPostgresStoreOptions {
  const { connectionString, pool, config, maxConnections } = options;
  const schema = checkSchema(options.schema ?? 'public');
  checkMaxConnections(maxConnections);
  const given = [connectionString, pool, config].filter((value) => value !== undefined).length;
  if (given > 1) throw invalid('Give at most one of connectionString, pool and config');
  if (pool !== undefined) {
    if (maxConnections !== undefined)
      throw invalid('maxConnections cannot be used with a caller-owned pool: size it yourself');
    return { pool, ownsPool: false, schema };
  }
  if (config !== undefined) return { pool: createPool(config, maxConnections), ownsPool: true, schema };
  const url = connectionString ?? process.env.DATABASE_URL;
  if (typeof url !== 'string' || url.trim() === '') {
    throw invalid(
      'No PostgreSQL connection: pass connectionString (e.g. postgres://user:password@host:5432/db), ' +
        'a pool or a config, or set the DATABASE_URL environment variable',
    );
  }
  return { pool: createPool({ connectionString: url }, maxConnections), ownsPool: true, schema };
}
