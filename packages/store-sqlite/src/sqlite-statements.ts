import type { SqliteConnection, SqliteStatement as Statement } from './sqlite-connection.js';

/** A conversation's listing figures as SQLite returns them. */
export interface ConversationRow {
  id: string;
  created_at: string;
  updated_at: string;
  last_seq: number;
  title: string | null;
}

/** What an append reads about an existing conversation. */
export interface ConversationHead {
  num: number;
  last_seq: number;
  /** 1 once the conversation has a title (SQLite has no booleans). */
  titled: 0 | 1;
}

/** Every statement the store runs, prepared once per connection. */
export interface SqliteStatements {
  findConversation: Statement<[string], ConversationHead>;
  findAppend: Statement<[string, string], { first_seq: number; count: number }>;
  insertConversation: Statement<[string, string, string | null], number>;
  setTitle: Statement<[string, number]>;
  insertMessage: Statement<[number, number, string, string]>;
  insertAppend: Statement<[string, string, number, number]>;
  findMessageId: Statement<[number, string], number>;
  insertMessageId: Statement<[number, string, number]>;
  loadForward: Statement<[string, number, number, number], string>;
  loadBackward: Statement<[string, number, number, number], string>;
  listFirst: Statement<[number], ConversationRow>;
  listAfter: Statement<[string, string, string, number], ConversationRow>;
  /** `listFirst` of the conversations matching a `LIKE` pattern (bound three times). */
  searchFirst: Statement<[string, string, string, number], ConversationRow>;
  searchAfter: Statement<[string, string, string, string, string, string, number], ConversationRow>;
  deleteConversation: Statement<[string], number>;
  deleteMessages: Statement<[number, number]>;
  deleteMessageIds: Statement<[number]>;
  deleteBlobsUnder: Statement<[string, string]>;
  putBlob: Statement<[string, Uint8Array]>;
  blobSize: Statement<[string], number>;
  getBlob: Statement<[number, number, string], Uint8Array | null>;
}

// Every message key of the conversation numbered `num` (an SQL expression): its number in the high
// bits, any seq in the low 32. A rowid range, so max(key) over it is one seek from its top.
const keysOf = (num: string) => `key BETWEEN ${num} << 32 AND (${num} << 32) | 0xFFFFFFFF`;

// A load window as a range of message keys, the conversation's number found in the same statement
// (one snapshot: a deleted conversation's number may be reused). The range is a rowid seek, so
// ORDER BY key needs no sort.
const LOAD_WINDOW = `WITH conversation (base) AS (SELECT num << 32 FROM cairn_conversations WHERE id = ?)
  SELECT message FROM conversation, cairn_messages WHERE key BETWEEN (base | ?) AND (base | ?)`;

// Each conversation with its last message: max(key) seeks to the top of the conversation's key
// range and the join reads that row by rowid, so cairn_messages is never scanned. The row's seq is
// the conversation's last seq and message count, its `at` the updated_at. A conversation is created
// by an append, so it has a message; the LEFT JOIN would list it regardless.
const SUMMARIES = `WITH summaries AS (
    SELECT c.num, c.id, c.created_at, c.title, coalesce(m.key & 0xFFFFFFFF, 0) AS last_seq,
      coalesce(m.at, c.created_at) AS updated_at
    FROM cairn_conversations AS c
    LEFT JOIN cairn_messages AS m ON m.key = (SELECT max(key) FROM cairn_messages WHERE ${keysOf('c.num')})
  )
  SELECT id, created_at, updated_at, last_seq, title FROM summaries`;

// A conversation matching a search: its title, or the text of a user or assistant message (a string
// content, or a text part), is LIKE the pattern (bound three times: better-sqlite3 does not bind a
// numbered `?1` twice). The message scan is a seek to the conversation's key range, and stops at
// the first match. SQLite's LIKE folds ASCII letters only.
const MATCHES = `(title LIKE ? ESCAPE '\\' OR EXISTS (
    SELECT 1 FROM cairn_messages WHERE ${keysOf('num')}
      AND message ->> '$.role' IN ('user', 'assistant')
      AND CASE json_type(message, '$.content')
        WHEN 'text' THEN message ->> '$.content' LIKE ? ESCAPE '\\'
        WHEN 'array' THEN EXISTS (
          SELECT 1 FROM json_each(message, '$.content') AS part
          WHERE part.value ->> '$.type' = 'text' AND part.value ->> '$.text' LIKE ? ESCAPE '\\'
        )
        ELSE 0
      END
  ))`;

export function prepareStatements(db: SqliteConnection): SqliteStatements {
  return {
    findConversation: db.prepare<[string], ConversationHead>(
      `SELECT c.num, c.title IS NOT NULL AS titled,
         coalesce((SELECT max(key) FROM cairn_messages WHERE ${keysOf('c.num')}) & 0xFFFFFFFF, 0) AS last_seq
       FROM cairn_conversations AS c WHERE c.id = ?`,
    ),
    findAppend: db.prepare<[string, string], { first_seq: number; count: number }>(
      'SELECT first_seq, count FROM cairn_appends WHERE conversation_id = ? AND idempotency_key = ?',
    ),
    insertConversation: db.preparePluck<[string, string, string | null], number>(
      'INSERT INTO cairn_conversations (id, created_at, title) VALUES (?, ?, ?) RETURNING num',
    ),
    setTitle: db.prepare<[string, number]>('UPDATE cairn_conversations SET title = ? WHERE num = ?'),
    insertMessage: db.prepare<[number, number, string, string]>(
      'INSERT INTO cairn_messages (key, at, message) VALUES ((? << 32) | ?, ?, ?)',
    ),
    insertAppend: db.prepare<[string, string, number, number]>(
      'INSERT INTO cairn_appends (conversation_id, idempotency_key, first_seq, count) VALUES (?, ?, ?, ?)',
    ),
    // Ids are bound as JSON string literals (see migration 2).
    findMessageId: db.preparePluck<[number, string], number>(
      'SELECT seq FROM cairn_message_ids WHERE num = ? AND id = ?',
    ),
    insertMessageId: db.prepare<[number, string, number]>(
      'INSERT INTO cairn_message_ids (num, id, seq) VALUES (?, ?, ?)',
    ),
    // Range, then direction, then limit: `LIMIT` applies after `ORDER BY`.
    loadForward: db.preparePluck<[string, number, number, number], string>(
      `${LOAD_WINDOW} ORDER BY key ASC LIMIT ?`,
    ),
    loadBackward: db.preparePluck<[string, number, number, number], string>(
      `${LOAD_WINDOW} ORDER BY key DESC LIMIT ?`,
    ),
    listFirst: db.prepare<[number], ConversationRow>(`${SUMMARIES} ORDER BY updated_at DESC, id ASC LIMIT ?`),
    // Rows strictly after the cursor in (updated_at DESC, id ASC) order. (better-sqlite3 does not
    // bind a numbered `?1` twice.)
    listAfter: db.prepare<[string, string, string, number], ConversationRow>(
      `${SUMMARIES} WHERE updated_at < ? OR (updated_at = ? AND id > ?)
       ORDER BY updated_at DESC, id ASC LIMIT ?`,
    ),
    searchFirst: db.prepare<[string, string, string, number], ConversationRow>(
      `${SUMMARIES} WHERE ${MATCHES} ORDER BY updated_at DESC, id ASC LIMIT ?`,
    ),
    searchAfter: db.prepare<[string, string, string, string, string, string, number], ConversationRow>(
      `${SUMMARIES} WHERE (updated_at < ? OR (updated_at = ? AND id > ?)) AND ${MATCHES}
       ORDER BY updated_at DESC, id ASC LIMIT ?`,
    ),
    deleteConversation: db.preparePluck<[string], number>(
      'DELETE FROM cairn_conversations WHERE id = ? RETURNING num',
    ),
    deleteMessages: db.prepare<[number, number]>(`DELETE FROM cairn_messages WHERE ${keysOf('?')}`),
    deleteMessageIds: db.prepare<[number]>('DELETE FROM cairn_message_ids WHERE num = ?'),
    // A range on the primary key rather than LIKE, whose `_` wildcard a safe id may contain.
    deleteBlobsUnder: db.prepare<[string, string]>('DELETE FROM cairn_blobs WHERE ref >= ? AND ref < ?'),
    putBlob: db.prepare<[string, Uint8Array]>(
      'INSERT INTO cairn_blobs (ref, data) VALUES (?, ?) ON CONFLICT (ref) DO UPDATE SET data = excluded.data',
    ),
    // length() of a BLOB is its byte count, read without the bytes.
    blobSize: db.preparePluck<[string], number>('SELECT length(data) FROM cairn_blobs WHERE ref = ?'),
    // substr() on a BLOB counts bytes (1-based): only the asked-for range crosses into JavaScript.
    getBlob: db.preparePluck<[number, number, string], Uint8Array | null>(
      'SELECT substr(data, ?, ?) FROM cairn_blobs WHERE ref = ?',
    ),
  };
}
