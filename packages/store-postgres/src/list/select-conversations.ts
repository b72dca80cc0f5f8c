import {
  CairnError,
  type ConversationPage,
  type ConversationSummary,
  type ListConversationsOptions,
} from '@cairn/core';
import {
  encodeListCursor,
  likeContainsPattern,
  type NormalizedListOptions,
  normalizeListOptions,
} from '@cairn/storage';
import { ESCAPED_TEXT_PATTERN } from '../schema/index-escaped-message-ids.js';
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
export function normalizeListWindow(options?: ListConversationsOptions): NormalizedListOptions {
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

// JSON text PostgreSQL can read: its JSON functions refuse an escaped NUL or lone surrogate, so
// such a text (rare) is NULL here and matches no search.
const readableJson = (column: string) =>
  `(CASE WHEN ${column} !~ '${ESCAPED_TEXT_PATTERN}' THEN ${column}::json END)`;

/**
 * A conversation row (`c`) matching the `ILIKE` pattern `$n`: its title, or the text of a user or
 * assistant message (a string content, or a text part). The messages are an index range of the
 * primary key, scanned until the first match.
 */
function matchesSearch(tables: SchemaTables, n: number): string {
  return `(${readableJson('c.title')} #>> '{}' ILIKE $${n} ESCAPE '\\'
    OR EXISTS (
      SELECT 1 FROM ${tables.messages} AS m, LATERAL (SELECT ${readableJson('m.message')} AS doc) AS parsed
      WHERE m.conversation_id = c.id
        AND parsed.doc ->> 'role' IN ('user', 'assistant')
        AND CASE json_typeof(parsed.doc -> 'content')
          WHEN 'string' THEN parsed.doc ->> 'content' ILIKE $${n} ESCAPE '\\'
          WHEN 'array' THEN EXISTS (
            SELECT 1 FROM json_array_elements(parsed.doc -> 'content') AS part
            WHERE part ->> 'type' = 'text' AND part ->> 'text' ILIKE $${n} ESCAPE '\\'
          )
          ELSE false
        END
    ))`;
}

/**
 * One page of summaries (options checked by `normalizeListWindow`) by keyset pagination in SQL:
 * `updated_at DESC, id ASC` (the index order), rows strictly after the cursor, matching `search` if
 * given; one row more than the limit tells whether there is a next page.
 */
export async function selectConversations(
  db: Queryable,
  tables: SchemaTables,
  { cursor, limit, search }: NormalizedListOptions,
): Promise<ConversationPage> {
  const params: unknown[] = [limit + 1];
  const conditions: string[] = [];
  if (cursor !== undefined) {
    params.push(cursor.updatedAt, cursor.id);
    conditions.push('(c.updated_at < $2::timestamptz OR (c.updated_at = $2::timestamptz AND c.id > $3))');
  }
  if (search !== undefined) {
    params.push(likeContainsPattern(search));
    conditions.push(matchesSearch(tables, params.length));
  }
  const where = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
  const { rows } = await db.query<SummaryRow>(
    `SELECT c.id, ${isoTimestamp('c.created_at')} AS created_at, ${isoTimestamp('c.updated_at')} AS updated_at,
            c.message_count, c.last_seq, c.title
       FROM ${tables.conversations} AS c
       ${where}
      ORDER BY c.updated_at DESC, c.id ASC
      LIMIT $1`,
    params,
  );
  const conversations = rows.slice(0, limit).map(toSummary);
  const last = conversations.at(-1);
  return rows.length > limit && last !== undefined
    ? { conversations, nextCursor: encodeListCursor(last) }
    : { conversations };
}
