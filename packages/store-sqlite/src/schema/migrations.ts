/** One schema step. Versions are consecutive from 1; a released migration is never edited, only added to. */
export interface Migration {
  version: number;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    // Messages live in a rowid table: a WITHOUT ROWID b-tree would push every ~1 KB message into
    // overflow pages. The JSON text includes the message's seq, so a load is one parse per row.
    sql: `
      CREATE TABLE cairn_conversations (
        id TEXT PRIMARY KEY,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        message_count INTEGER NOT NULL,
        last_seq INTEGER NOT NULL,
        title TEXT
      );
      CREATE INDEX cairn_conversations_updated ON cairn_conversations (updated_at DESC, id);
      CREATE TABLE cairn_messages (
        conversation_id TEXT NOT NULL REFERENCES cairn_conversations (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        message TEXT NOT NULL,
        PRIMARY KEY (conversation_id, seq)
      );
      CREATE TABLE cairn_appends (
        conversation_id TEXT NOT NULL REFERENCES cairn_conversations (id) ON DELETE CASCADE,
        idempotency_key TEXT NOT NULL,
        first_seq INTEGER NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (conversation_id, idempotency_key)
      ) WITHOUT ROWID;
      CREATE TABLE cairn_blobs (
        ref TEXT PRIMARY KEY,
        data BLOB NOT NULL
      );
    `,
  },
];

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;
