/** One schema step. Versions are consecutive from 1; a released migration is never edited, only added to. */
export interface Migration {
  version: number;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    // A one-message append to an existing conversation rewrites one page, a leaf of cairn_messages:
    // the conversation's row is written when it is created and when its title is first set, never
    // for the figures every append changes. A message's rowid `key` is `(num << 32) | seq` (see
    // message-key.ts), so a conversation's messages are one rowid range and need no index; its last
    // seq (also its message count: seqs run from 1) and updated_at (that row's `at`) are read off
    // the range's highest key. The UNIQUE index on `id` is written only when a conversation is created.
    // Messages live in a rowid table: a WITHOUT ROWID b-tree would push every ~1 KB message into
    // overflow pages. The JSON text includes the message's seq, so a load is one parse per row.
    sql: `
      CREATE TABLE cairn_conversations (
        num INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        title TEXT
      );
      CREATE TABLE cairn_messages (
        key INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        message TEXT NOT NULL
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
  {
    version: 2,
    // Message ids are unique within a conversation: an append looks its ids up here (one seek each)
    // and adds them, one more leaf page per append. An id is kept as its JSON string literal (what
    // `message -> '$.id'` gives), which no lone surrogate or NUL can blur into another id. Ids that
    // an earlier version already stored twice stay as they were: the first one is indexed.
    sql: `
      CREATE TABLE cairn_message_ids (
        num INTEGER NOT NULL,
        id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        PRIMARY KEY (num, id)
      ) WITHOUT ROWID;
      INSERT OR IGNORE INTO cairn_message_ids (num, id, seq)
        SELECT key >> 32, message -> '$.id', key & 0xFFFFFFFF FROM cairn_messages ORDER BY key;
    `,
  },
  {
    version: 3,
    // Run leases (`LeaseStore`): one row per key, taken and renewed in BEGIN IMMEDIATE. A release
    // empties `owner` and puts the expiry in the past rather than deleting the row, so the epoch
    // counts on across owners. Expiries are milliseconds of the writing process's clock.
    sql: `
      CREATE TABLE cairn_leases (
        key TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        epoch INTEGER NOT NULL,
        expires_at_ms INTEGER NOT NULL
      ) WITHOUT ROWID;
    `,
  },
];

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;
