/** The SQLite libraries the store runs on. */
export type SqliteDriver = 'better-sqlite3' | 'node:sqlite';

/** A value SQLite binds or returns, as both drivers give it (integers as numbers). */
export type SqliteValue = string | number | Uint8Array | null;

/** A prepared statement, run with positional parameters. */
export interface SqliteStatement<Params extends SqliteValue[], Row = unknown> {
  run(...params: Params): void;
  get(...params: Params): Row | undefined;
  all(...params: Params): Row[];
}

/**
 * The part of a SQLite driver the store uses: the seam between the store and better-sqlite3 or
 * `node:sqlite`. Both are synchronous, so the store's SQL and locking are the same on either.
 */
export interface SqliteConnection {
  readonly driver: SqliteDriver;
  prepare<Params extends SqliteValue[], Row = unknown>(sql: string): SqliteStatement<Params, Row>;
  /** A statement whose rows are the value of their only column. */
  preparePluck<Params extends SqliteValue[], Value>(sql: string): SqliteStatement<Params, Value>;
  /** Runs SQL that returns nothing the caller needs (DDL, `PRAGMA x = y`), several statements allowed. */
  exec(sql: string): void;
  /**
   * `work` as one `BEGIN IMMEDIATE` transaction: the write lock is taken first (so a read inside
   * never has to be upgraded, which could deadlock), committed on return, rolled back on a throw.
   */
  immediate<Args extends unknown[], Result>(work: (...args: Args) => Result): (...args: Args) => Result;
  close(): void;
}
