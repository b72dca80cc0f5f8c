import type { SqliteConnection, SqliteStatement, SqliteValue } from './sqlite-connection.js';

/**
 * The part of a `node:sqlite` `StatementSync` the store uses. Declared here rather than imported:
 * `@types/node` for Node 20 has no `node:sqlite`, and a user on Node 20 still compiles against us.
 */
export interface NodeSqliteStatement {
  run(...params: SqliteValue[]): unknown;
  get(...params: SqliteValue[]): unknown;
  all(...params: SqliteValue[]): unknown[];
  /** Node >= 22.16 / 24: rows as arrays, cheaper than objects for one column. */
  setReturnArrays?(enabled: boolean): void;
}

/** The part of a `node:sqlite` `DatabaseSync` the store uses (a real `DatabaseSync` fits it). */
export interface NodeSqliteDatabase {
  prepare(sql: string): NodeSqliteStatement;
  exec(sql: string): void;
  close(): void;
  /** Node >= 22.16 / 24. */
  readonly isTransaction?: boolean;
}

/** The `node:sqlite` module as far as the store opens databases with it. */
export interface NodeSqliteModule {
  DatabaseSync: new (location: string, options?: { timeout?: number }) => NodeSqliteDatabase;
}

function firstColumn(row: unknown): unknown {
  if (Array.isArray(row)) return row[0];
  for (const key in row as Record<string, unknown>) return (row as Record<string, unknown>)[key];
  return undefined;
}

function pluck<Params extends SqliteValue[], Value>(
  statement: NodeSqliteStatement,
): SqliteStatement<Params, Value> {
  statement.setReturnArrays?.(true);
  return {
    run: (...params) => {
      statement.run(...params);
    },
    get: (...params) => {
      const row = statement.get(...params);
      return row === undefined ? undefined : (firstColumn(row) as Value);
    },
    all: (...params) => {
      // In place: a load of 10,000 messages builds no second array.
      const rows = statement.all(...params);
      for (let index = 0; index < rows.length; index++) rows[index] = firstColumn(rows[index]);
      return rows as Value[];
    },
  };
}

/** A `node:sqlite` connection as a `SqliteConnection`. */
export function nodeSqliteConnection(db: NodeSqliteDatabase): SqliteConnection {
  return {
    driver: 'node:sqlite',
    prepare: <Params extends SqliteValue[], Row>(sql: string) => {
      const statement = db.prepare(sql);
      return {
        run: (...params: Params) => {
          statement.run(...params);
        },
        get: (...params: Params) => statement.get(...params) as Row | undefined,
        all: (...params: Params) => statement.all(...params) as Row[],
      };
    },
    preparePluck: <Params extends SqliteValue[], Value>(sql: string) => pluck<Params, Value>(db.prepare(sql)),
    exec: (sql) => {
      db.exec(sql);
    },
    immediate:
      (work) =>
      (...args) => {
        db.exec('BEGIN IMMEDIATE');
        let result: ReturnType<typeof work>;
        try {
          result = work(...args);
          db.exec('COMMIT');
        } catch (error) {
          // SQLite may already have rolled back (e.g. after SQLITE_FULL); before Node 22.16 there is
          // no isTransaction to ask, and a ROLLBACK with no transaction open fails harmlessly.
          if (db.isTransaction !== false) {
            try {
              db.exec('ROLLBACK');
            } catch {}
          }
          throw error;
        }
        return result;
      },
    close: () => {
      db.close();
    },
  };
}
