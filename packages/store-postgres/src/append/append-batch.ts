import { type AppendOptions, type AppendResult, CairnError, type ConversationMessage } from '@cairn/core';
import {
  assertExpectedSeq,
  assertNewMessageIds,
  assignSeqs,
  type PendingBlob,
  type PreparedMessage,
  replayIdempotentAppend,
  titleOfAppend,
} from '@cairn/storage';
import type { PoolClient } from 'pg';
import { writePendingBlob } from '../blob/blob-queries.js';
import { selectMessages } from '../load/select-messages.js';
import { conversationLockName, type SchemaTables } from '../schema/schema-tables.js';
import { lockTransaction } from '../sql/in-transaction.js';

function serialize(message: ConversationMessage): string {
  try {
    return JSON.stringify(message);
  } catch (error) {
    throw new CairnError(
      'INVALID_MESSAGE',
      `Message ${message.id} cannot be stored as JSON: ${String(error)}`,
      {
        cause: error,
      },
    );
  }
}

// A key or message id may hold NUL or lone surrogates, which PostgreSQL text cannot: it is stored as
// a JSON string literal.
function storedText(text: string): string {
  return JSON.stringify(text);
}

/** The stored messages of the append that used this key, if one did. */
async function findIdempotentAppend(
  client: PoolClient,
  tables: SchemaTables,
  conversationId: string,
  idempotencyKey: string,
): Promise<ConversationMessage[] | undefined> {
  const { rows } = await client.query<{ first_seq: string; count: number }>(
    `SELECT first_seq, count FROM ${tables.appends} WHERE conversation_id = $1 AND idempotency_key = $2`,
    [conversationId, storedText(idempotencyKey)],
  );
  const first = rows[0];
  if (first === undefined) return undefined;
  const fromSeq = Number(first.first_seq);
  return selectMessages(client, tables, conversationId, {
    fromSeq,
    toSeq: fromSeq + first.count - 1,
    limit: first.count,
    direction: 'forward',
  });
}

/**
 * The locked part of `append`, inside the caller's transaction: serialises writers of one conversation
 * (every instance, every process) on a transaction-scoped advisory lock, so reading the last seq and
 * writing after it cannot interleave; the lock ends with the transaction, also when the process dies.
 * Idempotency is checked before `expectedSeq`: a replay succeeds whatever `expectedSeq` says.
 */
export async function appendBatch(
  client: PoolClient,
  tables: SchemaTables,
  conversationId: string,
  prepared: PreparedMessage[],
  { expectedSeq, idempotencyKey }: AppendOptions,
  blobs: readonly PendingBlob[] = [],
): Promise<AppendResult> {
  await lockTransaction(client, conversationLockName(tables, conversationId));
  if (idempotencyKey !== undefined) {
    const stored = await findIdempotentAppend(client, tables, conversationId, idempotencyKey);
    if (stored !== undefined) return replayIdempotentAppend(conversationId, idempotencyKey, stored, prepared);
  }
  const ids = prepared.map((message) => storedText(message.id));
  // The last seq and the batch's ids the conversation already holds (a row each), in one round trip.
  const { rows } = await client.query<{ last_seq: string; message_id: string | null; seq: string | null }>(
    `SELECT c.last_seq, m.message_id, m.seq FROM ${tables.conversations} AS c
       LEFT JOIN ${tables.messageIds} AS m ON m.conversation_id = c.id AND m.message_id = ANY($2::text[])
     WHERE c.id = $1`,
    [conversationId, ids],
  );
  const lastSeq = Number(rows[0]?.last_seq ?? 0);
  assertExpectedSeq(conversationId, expectedSeq, lastSeq);
  const taken = new Map(rows.map((row) => [row.message_id, Number(row.seq)]));
  assertNewMessageIds(conversationId, prepared, (id) => taken.get(storedText(id)));
  if (prepared.length === 0) return { seqs: [], messages: [] };
  for (const blob of blobs) await writePendingBlob(client, tables, blob);

  const texts = assignSeqs(prepared, lastSeq).map(serialize);
  const { title, replaces } = titleOfAppend(prepared);
  // One statement writes the rows, their ids, the idempotency key and the summary. The primary keys
  // on (conversation_id, seq) and (conversation_id, message_id) stay the last line of defence should
  // a writer ever skip the lock.
  await client.query(
    `WITH inserted AS (
       INSERT INTO ${tables.messages} (conversation_id, seq, message)
       SELECT $1::text, $2::bigint + batch.n - 1, batch.message
         FROM unnest($3::text[]) WITH ORDINALITY AS batch(message, n)
     ), indexed AS (
       INSERT INTO ${tables.messageIds} (conversation_id, message_id, seq)
       SELECT $1::text, batch.id, $2::bigint + batch.n - 1
         FROM unnest($8::text[]) WITH ORDINALITY AS batch(id, n)
     ), recorded AS (
       INSERT INTO ${tables.appends} (conversation_id, idempotency_key, first_seq, count)
       SELECT $1::text, $4::text, $2::bigint, $5::integer WHERE $4::text IS NOT NULL
       ON CONFLICT DO NOTHING
     )
     INSERT INTO ${tables.conversations} AS c (id, created_at, updated_at, message_count, last_seq, title)
     VALUES ($1::text, $6::timestamptz, $6::timestamptz, $5::integer, $2::bigint + $5::integer - 1, $7::text)
     ON CONFLICT (id) DO UPDATE SET
       -- Instances on other hosts have other clocks: updated_at never goes back.
       updated_at = greatest(c.updated_at, excluded.updated_at),
       message_count = c.message_count + excluded.message_count,
       last_seq = excluded.last_seq,
       -- The title is set by the first append that yields one, and replaced by a title record.
       title = CASE WHEN $9::boolean THEN excluded.title ELSE coalesce(c.title, excluded.title) END`,
    [
      conversationId,
      lastSeq + 1,
      texts,
      idempotencyKey === undefined ? null : storedText(idempotencyKey),
      texts.length,
      new Date().toISOString(),
      title === undefined ? null : JSON.stringify(title),
      ids,
      replaces,
    ],
  );
  const messages = texts.map((text) => JSON.parse(text) as ConversationMessage);
  return { seqs: messages.map((message) => message.seq ?? 0), messages };
}
