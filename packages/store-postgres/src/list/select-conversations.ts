import { CairnError, type ConversationPage, type ConversationSummary } from '@cairn/core';
import { encodeListCursor, type ListCursor, normalizeListOptions } from '@cairn/storage';
import type { SchemaTables } from '../schema/schema-tables.js';
import { isoTimestamp } from '../sql/iso-timestamp.js';
import type { Queryable } from '../sql/queryable.js';

interface SummaryRow {
  id: string;
  created_at: string;
  updated_at: string;
  message_count: number;
  last_seq: string;
  title: string | null;
}

function isStoredTime(value: string): boolean {
  const time = Date.parse(value);
  return Number.isFinite(time) && new Date(time).toISOString() === value;
}

/**
 * `normalizeListOptions`, and the cursor's time must be an ISO string this store produced: anything
 * else would fail later as a server-side cast error instead of `INVALID_ARGUMENT`.
 */
export function normalizeListWindow(options?: {
  cursor?: string;
  limit?: number;
}): ReturnType<typeof normalizeListOptions> {
  const window = normalizeListOptions(options);
  if (window.cursor !== undefined && !isStoredTime(window.cursor.updatedAt)) {
    throw new CairnError('INVALID_ARGUMENT', 'Invalid listConversations cursor');
  }
  return window;
}

function toSummary(row: SummaryRow): ConversationSummary {
  return {
    id: row.id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    messageCount: Number(row.message_count),
    lastSeq: Number(row.last_seq),
    ...(row.title === null ? {} : { title: JSON.parse(row.title) as string }),
  };
}

/**
 * One page of summaries (options checked by `normalizeListWindow`) by keyset pagination in SQL: `updated_at DESC, id ASC` (the index order),
 * rows strictly after the cursor; one row more than the limit tells whether there is a next page.
 */
export async function selectConversations(
  db: Queryable,
  tables: SchemaTables,
  { cursor, limit }: { cursor?: ListCursor; limit: number },
): Promise<ConversationPage> {
  const after =
    cursor === undefined
      ? ''
      : 'WHERE updated_at < $2::timestamptz OR (updated_at = $2::timestamptz AND id > $3)';
  const { rows } = await db.query<SummaryRow>(
    `SELECT id, ${isoTimestamp('created_at')} AS created_at, ${isoTimestamp('updated_at')} AS updated_at,
            message_count, last_seq, title
       FROM ${tables.conversations}
       ${after}
      ORDER BY updated_at DESC, id ASC
      LIMIT $1`,
    cursor === undefined ? [limit + 1] : [limit + 1, cursor.updatedAt, cursor.id],
  );
  const conversations = rows.slice(0, limit).map(toSummary);
  const last = conversations.at(-1);
  return rows.length > limit && last !== undefined
    ? { conversations, nextCursor: encodeListCursor(last) }
    : { conversations };
}
