import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject, onTestFinished } from 'vitest';

export interface TestSchema {
  url: string;
  /** A fresh schema name (not created: the store under test creates it). */
  schema: string;
  /** A pool for checking and tampering with the database behind the store's back. */
  admin: pg.Pool;
}

/** A fresh schema name on the test server; dropped, and the admin pool ended, when the test finishes. */
export function useTestSchema(): TestSchema {
  const url = inject('databaseUrl');
  const schema = `cairn_unit_${randomBytes(8).toString('hex')}`;
  const admin = new pg.Pool({ connectionString: url, max: 2 });
  onTestFinished(async () => {
    await admin.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`);
    await admin.end();
  });
  return { url, schema, admin };
}
