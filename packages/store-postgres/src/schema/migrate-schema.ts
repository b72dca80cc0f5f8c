import { CairnError } from '@cairn/core';
import type { Pool } from 'pg';
import { inTransaction, lockTransaction } from '../sql/in-transaction.js';
import { CURRENT_SCHEMA_VERSION, MIGRATIONS } from './migrations.js';
import type { SchemaTables } from './schema-tables.js';

/**
 * One key for every migration in the database (not per schema): creating a schema is not safe to race
 * either, so processes starting together take turns; the first migrates, the others find it done.
 */
const MIGRATION_LOCK_NAME = '@cairn/store-postgres/migrate';

/**
 * Brings the schema to `CURRENT_SCHEMA_VERSION` in one transaction: creates the schema if missing,
 * then applies the migrations the version table does not list. A database at a newer version than
 * this code knows is refused (`STORE_UNAVAILABLE`, not retryable) rather than written in an old format.
 */
export async function migrateSchema(pool: Pool, tables: SchemaTables): Promise<void> {
  await inTransaction(pool, async (client) => {
    await lockTransaction(client, MIGRATION_LOCK_NAME);
    // Checked first: CREATE SCHEMA IF NOT EXISTS needs the CREATE privilege even when the schema exists.
    const existing = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [tables.schema]);
    if (existing.rowCount === 0) await client.query(`CREATE SCHEMA ${tables.quotedSchema}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${tables.schemaVersion} (
         version integer PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const { rows } = await client.query<{ version: number }>(
      `SELECT coalesce(max(version), 0)::integer AS version FROM ${tables.schemaVersion}`,
    );
    const version = rows[0]?.version ?? 0;
    if (version > CURRENT_SCHEMA_VERSION) {
      throw new CairnError(
        'STORE_UNAVAILABLE',
        `The PostgreSQL schema "${tables.schema}" is at version ${version}, but this @cairn/store-postgres only ` +
          `knows versions up to ${CURRENT_SCHEMA_VERSION}: upgrade @cairn/store-postgres`,
        {
          retryable: false,
          details: { schema: tables.schema, version, supportedVersion: CURRENT_SCHEMA_VERSION },
        },
      );
    }
    for (let next = version; next < CURRENT_SCHEMA_VERSION; next++) {
      const migration = MIGRATIONS[next];
      if (migration === undefined) break;
      await client.query(migration.sql(tables));
      await migration.finish?.(client, tables);
      await client.query(`INSERT INTO ${tables.schemaVersion} (version) VALUES ($1)`, [next + 1]);
    }
  });
}
