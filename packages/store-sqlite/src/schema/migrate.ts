import { CairnError } from '@cairn/core';
import type { SqliteConnection } from '../sqlite-connection.js';
import { MIGRATIONS, type Migration } from './migrations.js';

function readVersion(db: SqliteConnection): number {
  const table = db
    .prepare<[], unknown>(
      "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'cairn_schema_version'",
    )
    .get();
  if (table === undefined) return 0;
  const version = db.preparePluck<[], unknown>('SELECT max(version) FROM cairn_schema_version').get();
  return typeof version === 'number' ? version : 0;
}

function refuseNewer(version: number, latest: number): void {
  if (version <= latest) return;
  throw new CairnError(
    'STORE_UNAVAILABLE',
    `The database has schema version ${version}, newer than the ${latest} this @cairn/store-sqlite knows: upgrade @cairn/store-sqlite`,
    { retryable: false, details: { schemaVersion: version, supportedVersion: latest } },
  );
}

/**
 * Brings the schema to the latest version and returns it. Safe when several processes open one file
 * at once: the version is re-read under the write lock (BEGIN IMMEDIATE), so each migration runs
 * exactly once, whole or not at all. A database already at the latest version takes no write lock.
 */
export function migrate(db: SqliteConnection, migrations: readonly Migration[] = MIGRATIONS): number {
  const latest = migrations.at(-1)?.version ?? 0;
  const seen = readVersion(db);
  refuseNewer(seen, latest);
  if (seen === latest) return latest;
  return db.immediate(() => {
    db.exec(
      'CREATE TABLE IF NOT EXISTS cairn_schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)',
    );
    const current = readVersion(db);
    refuseNewer(current, latest);
    const record = db.prepare<[number, string], never>(
      'INSERT INTO cairn_schema_version (version, applied_at) VALUES (?, ?)',
    );
    for (const migration of migrations) {
      if (migration.version <= current) continue;
      db.exec(migration.sql);
      record.run(migration.version, new Date().toISOString());
    }
    return latest;
  })();
}
