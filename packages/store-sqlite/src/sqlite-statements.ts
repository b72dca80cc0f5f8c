import type { Database, Statement } from 'better-sqlite3';

/** A `cairn_conversations` row as SQLite returns it. */
export interface ConversationRow {
  id: string;
  created_at: string;
  updated_at: string;
  message_count: number;
  last_seq: number;
  title: string | null;
}

const SUMMARY_COLUMNS = 'id, created_at, updated_at, message_count, last_seq, title';

/** Every statement the store runs, prepared once per connection. */
export interface SqliteStatements {
  lastSeq: Statement<[string], number>;
  findAppend: Statement<[string, string], { first_seq: number; count: number }>;
  upsertConversation: Statement<[string, string, string, number, number, string | null]>;
  insertMessage: Statement<[string, number, string]>;
  insertAppend: Statement<[string, string, number, number]>;
  loadForward: Statement<[string, number, number, number], string>;
  loadBackward: Statement<[string, number, number, number], string>;
  listFirst: Statement<[number], ConversationRow>;
  listAfter: Statement<[string, string, string, number], ConversationRow>;
  deleteConversation: Statement<[string]>;
  deleteBlobsUnder: Statement<[string, string]>;
  putBlob: Statement<[string, Buffer]>;
  getBlob: Statement<[number, number, string], Buffer | null>;
}

export function prepareStatements(db: Database): SqliteStatements {
  return {
    lastSeq: db.prepare<[string], number>('SELECT last_seq FROM cairn_conversations WHERE id = ?').pluck(),
    findAppend: db.prepare<[string, string], { first_seq: number; count: number }>(
      'SELECT first_seq, count FROM cairn_appends WHERE conversation_id = ? AND idempotency_key = ?',
    ),
    upsertConversation: db.prepare<[string, string, string, number, number, string | null]>(
      `INSERT INTO cairn_conversations (id, created_at, updated_at, message_count, last_seq, title)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET
         updated_at = excluded.updated_at,
         message_count = message_count + excluded.message_count,
         last_seq = excluded.last_seq,
         title = coalesce(title, excluded.title)`,
    ),
    insertMessage: db.prepare<[string, number, string]>(
      'INSERT INTO cairn_messages (conversation_id, seq, message) VALUES (?, ?, ?)',
    ),
    insertAppend: db.prepare<[string, string, number, number]>(
      'INSERT INTO cairn_appends (conversation_id, idempotency_key, first_seq, count) VALUES (?, ?, ?, ?)',
    ),
    // Range, then direction, then limit: `LIMIT` applies after `ORDER BY`.
    loadForward: db
      .prepare<[string, number, number, number], string>(
        'SELECT message FROM cairn_messages WHERE conversation_id = ? AND seq BETWEEN ? AND ? ORDER BY seq ASC LIMIT ?',
      )
      .pluck(),
    loadBackward: db
      .prepare<[string, number, number, number], string>(
        'SELECT message FROM cairn_messages WHERE conversation_id = ? AND seq BETWEEN ? AND ? ORDER BY seq DESC LIMIT ?',
      )
      .pluck(),
    listFirst: db.prepare<[number], ConversationRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM cairn_conversations ORDER BY updated_at DESC, id ASC LIMIT ?`,
    ),
    // Rows strictly after the cursor in (updated_at DESC, id ASC) order; the first condition gives
    // the index a range to seek to. (better-sqlite3 does not bind a numbered `?1` twice.)
    listAfter: db.prepare<[string, string, string, number], ConversationRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM cairn_conversations
       WHERE updated_at <= ? AND (updated_at < ? OR id > ?)
       ORDER BY updated_at DESC, id ASC LIMIT ?`,
    ),
    deleteConversation: db.prepare<[string]>('DELETE FROM cairn_conversations WHERE id = ?'),
    // A range on the primary key rather than LIKE, whose `_` wildcard a safe id may contain.
    deleteBlobsUnder: db.prepare<[string, string]>('DELETE FROM cairn_blobs WHERE ref >= ? AND ref < ?'),
    putBlob: db.prepare<[string, Buffer]>(
      'INSERT INTO cairn_blobs (ref, data) VALUES (?, ?) ON CONFLICT (ref) DO UPDATE SET data = excluded.data',
    ),
    // substr() on a BLOB counts bytes (1-based): only the asked-for range crosses into JavaScript.
    getBlob: db
      .prepare<[number, number, string], Buffer | null>(
        'SELECT substr(data, ?, ?) FROM cairn_blobs WHERE ref = ?',
      )
      .pluck(),
  };
}
