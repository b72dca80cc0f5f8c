import { CairnError } from '@cairn/core';
import { blobPrefixEnd, conversationBlobPrefixes, type PendingBlob } from '@cairn/storage';
import type { SchemaTables } from '../schema/schema-tables.js';
import type { Queryable } from '../sql/queryable.js';

// A bytea holds at most 1 GiB, and substring() takes 32-bit positions: larger offsets and lengths
// are clamped, which changes nothing since they reach past the end anyway.
const MAX_BYTEA_LENGTH = 2 ** 30;

/** Inserts or replaces a blob. */
export async function upsertBlob(
  db: Queryable,
  tables: SchemaTables,
  ref: string,
  data: Uint8Array,
): Promise<void> {
  await db.query(
    `INSERT INTO ${tables.blobs} (ref, data) VALUES ($1, $2)
     ON CONFLICT (ref) DO UPDATE SET data = excluded.data`,
    [ref, data],
  );
}

/** The blob's bytes in a checked range (`normalizeBlobRange`), cut in SQL; `STORE_NOT_FOUND` when absent. */
export async function selectBlob(
  db: Queryable,
  tables: SchemaTables,
  ref: string,
  { offset, length }: { offset: number; length?: number },
): Promise<Uint8Array> {
  const from = Math.min(offset, MAX_BYTEA_LENGTH) + 1;
  const { rows } = await db.query<{ data: Uint8Array }>(
    length === undefined
      ? `SELECT substring(data FROM $2::integer) AS data FROM ${tables.blobs} WHERE ref = $1`
      : `SELECT substring(data FROM $2::integer FOR $3::integer) AS data FROM ${tables.blobs} WHERE ref = $1`,
    length === undefined ? [ref, from] : [ref, from, Math.min(length, MAX_BYTEA_LENGTH)],
  );
  const row = rows[0];
  if (row === undefined) throw new CairnError('STORE_NOT_FOUND', `No blob ${ref}`, { details: { ref } });
  return row.data;
}

/**
 * Writes a blob an append collected, under the conversation's lock. A media part's blob already
 * there (same ref and size) holds its bytes, its name being their hash: it is not sent again.
 */
export async function writePendingBlob(
  db: Queryable,
  tables: SchemaTables,
  { ref, bytes, contentAddressed }: PendingBlob,
): Promise<void> {
  if (contentAddressed) {
    const { rows } = await db.query<{ size: number }>(
      `SELECT octet_length(data) AS size FROM ${tables.blobs} WHERE ref = $1`,
      [ref],
    );
    if (rows[0]?.size === bytes.length) return;
  }
  await upsertBlob(db, tables, ref, bytes);
}

/**
 * Deletes a conversation's blobs: the refs under each of `conversationBlobPrefixes` (offloaded tool
 * outputs, media parts' bytes). Refs compare byte-wise (`COLLATE "C"`), so each prefix's refs are
 * exactly those in [`prefix`, `blobPrefixEnd(prefix)`): an index range scan, and no LIKE pattern in
 * which `_` (allowed in ids) would be a wildcard.
 */
export async function deleteConversationBlobs(
  db: Queryable,
  tables: SchemaTables,
  conversationId: string,
): Promise<void> {
  for (const prefix of conversationBlobPrefixes(conversationId)) {
    await db.query(`DELETE FROM ${tables.blobs} WHERE ref >= $1 AND ref < $2`, [
      prefix,
      blobPrefixEnd(prefix),
    ]);
  }
}
