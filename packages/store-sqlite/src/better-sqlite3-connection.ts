import type { Database } from 'better-sqlite3';
import type { SqliteConnection, SqliteStatement, SqliteValue } from './sqlite-connection.js';

/** A better-sqlite3 connection as a `SqliteConnection`. */
export function betterSqlite3Connection(db: Database): SqliteConnection {
  return {
    driver: 'better-sqlite3',
    prepare: <Params extends SqliteValue[], Row>(sql: string) =>
      db.prepare<Params, Row>(sql) as unknown as SqliteStatement<Params, Row>,
    preparePluck: <Params extends SqliteValue[], Value>(sql: string) =>
      db.prepare<Params, Value>(sql).pluck() as unknown as SqliteStatement<Params, Value>,
    exec: (sql) => {
      db.exec(sql);
    },
    // better-sqlite3's own wrapper: it also nests as a savepoint inside a transaction of yours.
    immediate: (work) => {
      const transaction = db.transaction(work);
      return (...args) => transaction.immediate(...args);
    },
    close: () => {
      db.close();
    },
  };
}
