import type { Queryable } from '../sql/queryable.js';
import { ESCAPED_TEXT_PATTERN, indexEscapedMessageIds } from './index-escaped-message-ids.js';
import type { SchemaTables } from './schema-tables.js';

/** One schema step: its SQL, then (rarely) work SQL cannot do, in the same transaction. */
export interface Migration {
  sql(tables: SchemaTables): string;
  finish?(db: Queryable, tables: SchemaTables): Promise<void>;
}

/**
 * The schema, one entry per version: entry `i` takes the database from version `i` to `i + 1`. Only
 * ever append to this list; a released migration never changes.
 *
 * Text that may hold characters PostgreSQL `text` cannot store (NUL, lone surrogates) is kept as JSON:
 * messages (`text`, not `jsonb`, which also rejects `\u0000` and reorders keys), titles and
 * idempotency keys (JSON string literals). Ids and refs are safe ids, compared byte-wise (`COLLATE "C"`)
 * so that listing order matches JavaScript's and a blob prefix is an index range.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    sql: (t) => `
    CREATE TABLE ${t.conversations} (
      id text COLLATE "C" PRIMARY KEY,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      message_count integer NOT NULL,
      last_seq bigint NOT NULL,
      title text
    );
    CREATE INDEX cairn_conversations_updated_at_id_idx ON ${t.conversations} (updated_at DESC, id);
    COMMENT ON COLUMN ${t.conversations}.title IS 'JSON string literal (may hold NUL or lone surrogates)';

    CREATE TABLE ${t.messages} (
      conversation_id text COLLATE "C" NOT NULL,
      seq bigint NOT NULL,
      message text NOT NULL,
      PRIMARY KEY (conversation_id, seq)
    );
    COMMENT ON COLUMN ${t.messages}.message IS 'The message as JSON text, seq included';

    CREATE TABLE ${t.appends} (
      conversation_id text COLLATE "C" NOT NULL,
      idempotency_key text NOT NULL,
      first_seq bigint NOT NULL,
      count integer NOT NULL,
      PRIMARY KEY (conversation_id, idempotency_key)
    );
    COMMENT ON COLUMN ${t.appends}.idempotency_key IS 'JSON string literal (may hold NUL or lone surrogates)';

    CREATE TABLE ${t.blobs} (
      ref text COLLATE "C" PRIMARY KEY,
      data bytea NOT NULL
    );
  `,
  },
  // Message ids are unique within a conversation: an append looks its ids up here and adds them. An
  // id is kept as its JSON string literal, as the message text holds it (`message::json -> 'id'`).
  // Ids that an earlier version already stored twice stay as they were: the first one is indexed.
  // PostgreSQL's JSON functions refuse a text holding an escaped NUL or lone surrogate: those few
  // messages (CASE keeps the cast from ever seeing them) are indexed by `finish`, in JavaScript.
  {
    sql: (t) => `
    CREATE TABLE ${t.messageIds} (
      conversation_id text COLLATE "C" NOT NULL,
      message_id text COLLATE "C" NOT NULL,
      seq bigint NOT NULL,
      PRIMARY KEY (conversation_id, message_id)
    );
    COMMENT ON COLUMN ${t.messageIds}.message_id IS 'JSON string literal (may hold NUL or lone surrogates)';
    INSERT INTO ${t.messageIds} (conversation_id, message_id, seq)
      SELECT DISTINCT ON (conversation_id, message_id) conversation_id, message_id, seq
      FROM (
        SELECT conversation_id, seq,
          CASE WHEN message !~ '${ESCAPED_TEXT_PATTERN}' THEN (message::json -> 'id')::text END AS message_id
        FROM ${t.messages}
      ) AS stored
      WHERE message_id IS NOT NULL
      ORDER BY conversation_id, message_id, seq;
  `,
    finish: indexEscapedMessageIds,
  },
  // Run leases (`LeaseStore`): one row per key. A release empties `owner` and sets the expiry to
  // -infinity rather than deleting the row, so the epoch counts on across owners. Expiries are the
  // database's clock (`now()`), whatever the clocks of the hosts sharing it.
  {
    sql: (t) => `
    CREATE TABLE ${t.leases} (
      key text COLLATE "C" PRIMARY KEY,
      owner text NOT NULL,
      epoch bigint NOT NULL,
      expires_at timestamptz NOT NULL
    );
  `,
  },
];

/** The version this code creates and understands. */
export const CURRENT_SCHEMA_VERSION = MIGRATIONS.length;
