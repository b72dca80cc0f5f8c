import type { SchemaTables } from './schema-tables.js';

/**
 * The schema, one entry per version: entry `i` takes the database from version `i` to `i + 1`. Only
 * ever append to this list; a released migration never changes.
 *
 * Text that may hold characters PostgreSQL `text` cannot store (NUL, lone surrogates) is kept as JSON:
 * messages (`text`, not `jsonb`, which also rejects `\u0000` and reorders keys), titles and
 * idempotency keys (JSON string literals). Ids and refs are safe ids, compared byte-wise (`COLLATE "C"`)
 * so that listing order matches JavaScript's and a blob prefix is an index range.
 */
export const MIGRATIONS: readonly ((tables: SchemaTables) => string)[] = [
  (t) => `
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
];

/** The version this code creates and understands. */
export const CURRENT_SCHEMA_VERSION = MIGRATIONS.length;
