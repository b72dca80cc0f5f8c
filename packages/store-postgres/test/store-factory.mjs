// The conformance kit's StoreFactory, as plain JavaScript over the built package: the kit's child
// processes import this module too. A location is a fresh schema in the DATABASE_URL database.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createPostgresConversationStore } from '../dist/index.js';

export async function createLocation() {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set (the vitest global setup starts a server and sets it)');
  return { url, schema: `cairn_test_${randomBytes(8).toString('hex')}` };
}

export async function openStore(location) {
  return createPostgresConversationStore({ connectionString: location.url, schema: location.schema });
}

export async function destroyLocation(location) {
  const client = new pg.Client({ connectionString: location.url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(location.schema)} CASCADE`);
  } finally {
    await client.end();
  }
}
