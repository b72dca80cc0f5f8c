import type { Queryable } from '../sql/queryable.js';
import type { SchemaTables } from './schema-tables.js';

/**
 * A PostgreSQL regular expression matching message texts that PostgreSQL's JSON functions refuse: an
 * escaped NUL or lone surrogate (`\u0000`, `\ud800`). It also matches a few texts they would take
 * (a literal backslash followed by `u0000`), which only sends those the slower way.
 */
export const ESCAPED_TEXT_PATTERN = '\\\\u(0000|[dD][89a-fA-F])';

// Messages are read a page at a time: a page may hold large ones.
const PAGE_SIZE = 100;

interface Row {
  conversation_id: string;
  seq: string;
  message: string;
}

/** The message's id as its JSON string literal, or undefined when the text is not a message. */
function storedIdOf(text: string): string | undefined {
  try {
    const { id } = JSON.parse(text) as { id?: unknown };
    return typeof id === 'string' ? JSON.stringify(id) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Migration 2's second half: indexes the ids of the messages its SQL left to JavaScript (those
 * matching `ESCAPED_TEXT_PATTERN`), parsed as the store reads them, in (conversation, seq) order.
 * An id the SQL half indexed too keeps the lower seq: the first message holding it.
 */
export async function indexEscapedMessageIds(db: Queryable, tables: SchemaTables): Promise<void> {
  let after: [string, string] = ['', '0'];
  for (;;) {
    const { rows } = await db.query<Row>(
      `SELECT conversation_id, seq, message FROM ${tables.messages}
       WHERE message ~ '${ESCAPED_TEXT_PATTERN}' AND (conversation_id, seq) > ($1, $2::bigint)
       ORDER BY conversation_id, seq LIMIT ${PAGE_SIZE}`,
      after,
    );
    const last = rows.at(-1);
    if (last === undefined) return;
    // One row per id: ON CONFLICT cannot touch a row twice in one statement. Rows come in seq order.
    const firsts = new Map<string, { conversationId: string; id: string; seq: string }>();
    for (const row of rows) {
      const id = storedIdOf(row.message);
      const key = JSON.stringify([row.conversation_id, id]);
      if (id === undefined || firsts.has(key)) continue;
      firsts.set(key, { conversationId: row.conversation_id, id, seq: row.seq });
    }
    const entries = [...firsts.values()];
    await db.query(
      `INSERT INTO ${tables.messageIds} AS indexed (conversation_id, message_id, seq)
       SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])
       ON CONFLICT (conversation_id, message_id) DO UPDATE SET seq = least(indexed.seq, excluded.seq)`,
      [
        entries.map((entry) => entry.conversationId),
        entries.map((entry) => entry.id),
        entries.map((entry) => entry.seq),
      ],
    );
    after = [last.conversation_id, last.seq];
  }
}
