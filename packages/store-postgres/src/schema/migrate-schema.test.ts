import { CairnError } from '@cairn/core';
import { caughtCairnError } from '@cairn/storage/testkit';
import { describe, expect, it } from 'vitest';
import { useTestSchema } from '../../test/test-schema.js';
import { createPostgresConversationStore } from '../postgres-conversation-store.js';
import { CURRENT_SCHEMA_VERSION, MIGRATIONS } from './migrations.js';
import { schemaTables } from './schema-tables.js';

// Every version this code knows, as the version table lists them after a migration.
const ALL_VERSIONS = Array.from({ length: CURRENT_SCHEMA_VERSION }, (_, index) => index + 1);

const message = (id: string) => ({
  id,
  role: 'user' as const,
  content: id,
  createdAt: '2026-01-01T00:00:00.000Z',
});

async function tablesOf(admin: ReturnType<typeof useTestSchema>['admin'], schema: string): Promise<string[]> {
  const { rows } = await admin.query<{ table_name: string }>(
    'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name',
    [schema],
  );
  return rows.map((row) => row.table_name);
}

async function versionsOf(
  admin: ReturnType<typeof useTestSchema>['admin'],
  schema: string,
): Promise<number[]> {
  const { rows } = await admin.query<{ version: number }>(
    `SELECT version FROM "${schema}".cairn_schema_version ORDER BY version`,
  );
  return rows.map((row) => row.version);
}

describe('migrations', () => {
  it('create the schema and every table on first use of a fresh database', async () => {
    const { url, schema, admin } = useTestSchema();
    const store = createPostgresConversationStore({ connectionString: url, schema });
    expect(await tablesOf(admin, schema)).toEqual([]);
    expect(await store.load('c1')).toEqual([]);
    expect(await tablesOf(admin, schema)).toEqual([
      'cairn_appends',
      'cairn_blobs',
      'cairn_conversations',
      'cairn_leases',
      'cairn_message_ids',
      'cairn_messages',
      'cairn_schema_version',
    ]);
    expect(await versionsOf(admin, schema)).toEqual(ALL_VERSIONS);
    await store.close();
  });

  it('run once: reopening finds the schema current and keeps the data', async () => {
    const { url, schema, admin } = useTestSchema();
    const first = createPostgresConversationStore({ connectionString: url, schema });
    await first.append('c1', [message('m1')]);
    await first.close();
    const second = createPostgresConversationStore({ connectionString: url, schema });
    expect((await second.append('c1', [message('m2')])).seqs).toEqual([2]);
    expect(await versionsOf(admin, schema)).toEqual(ALL_VERSIONS);
    await second.close();
  });

  it('refuse a database at a newer version than the code knows, and change nothing', async () => {
    const { url, schema, admin } = useTestSchema();
    const first = createPostgresConversationStore({ connectionString: url, schema });
    await first.append('c1', [message('m1')]);
    await first.close();
    await admin.query(`INSERT INTO "${schema}".cairn_schema_version (version) VALUES ($1)`, [
      CURRENT_SCHEMA_VERSION + 1,
    ]);
    const old = createPostgresConversationStore({ connectionString: url, schema });
    const error = await old.load('c1').catch((failure: unknown) => failure);
    expect(CairnError.is(error, 'STORE_UNAVAILABLE')).toBe(true);
    expect((error as CairnError).retryable).toBe(false);
    const newer = `version ${CURRENT_SCHEMA_VERSION + 1}`;
    expect((error as CairnError).message).toContain(newer);
    expect((error as CairnError).message).toContain('upgrade @cairn/store-postgres');
    await expect(old.append('c1', [message('m2')])).rejects.toThrow(newer);
    const { rows } = await admin.query(`SELECT seq FROM "${schema}".cairn_messages`);
    expect(rows).toHaveLength(1);
    await old.close();
  });

  it('index the message ids of a version 1 schema: ids stored twice stay, no new repeat gets in', async () => {
    const { url, schema, admin } = useTestSchema();
    const tables = schemaTables(schema);
    await admin.query(`CREATE SCHEMA ${tables.quotedSchema}`);
    await admin.query((MIGRATIONS[0] as (typeof MIGRATIONS)[number]).sql(tables));
    await admin.query(`CREATE TABLE ${tables.schemaVersion} (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
      INSERT INTO ${tables.schemaVersion} (version) VALUES (1)`);
    // Version 1 took any id, twice too; these ids are distinct only code unit for code unit.
    const ids = ['dup', 'q"uote\\', 'lone\ud800', 'lone\udbff', 'nul\u0000', 'dup'];
    // Texts with an escaped NUL or lone surrogate (the even ones here) are indexed in JavaScript,
    // the others in SQL: the first 'dup' takes the first way, the second the other.
    const content = (index: number) => (index % 2 === 0 ? 'lone \udc00 and nul \u0000' : 'plain');
    const texts = ids.map((id, index) =>
      JSON.stringify({ ...message(id), content: content(index), seq: index + 1 }),
    );
    await admin.query(
      `INSERT INTO ${tables.conversations} (id, created_at, updated_at, message_count, last_seq)
         VALUES ('c1', now(), now(), 6, 6)`,
    );
    await admin.query(
      `INSERT INTO ${tables.messages} (conversation_id, seq, message)
         SELECT 'c1', n, text FROM unnest($1::text[]) WITH ORDINALITY AS batch(text, n)`,
      [texts],
    );
    const store = createPostgresConversationStore({ connectionString: url, schema });
    expect((await store.load('c1')).map((stored) => stored.id)).toEqual(ids);
    expect(await versionsOf(admin, schema)).toEqual(ALL_VERSIONS);
    for (const [index, id] of ids.entries()) {
      const error = await caughtCairnError(store.append('c1', [message(id)]));
      expect(error.code).toBe('STORE_CONFLICT');
      // The first message with the id is the one indexed.
      expect(error.details).toMatchObject({ messageId: id, seq: id === 'dup' ? 1 : index + 1 });
    }
    expect((await store.append('c1', [message('lone\udfff')])).seqs).toEqual([7]);
    await store.close();
  });

  it('are safe when several stores start at once, on one schema and on several', async () => {
    const shared = useTestSchema();
    const others = [useTestSchema(), useTestSchema(), useTestSchema()];
    const stores = [
      ...Array.from({ length: 6 }, () =>
        createPostgresConversationStore({ connectionString: shared.url, schema: shared.schema }),
      ),
      ...others.map(({ url, schema }) => createPostgresConversationStore({ connectionString: url, schema })),
    ];
    await Promise.all(stores.map((store, index) => store.append('c1', [message(`m${index}`)])));
    expect(await versionsOf(shared.admin, shared.schema)).toEqual(ALL_VERSIONS);
    const { rows } = await shared.admin.query(
      `SELECT seq FROM "${shared.schema}".cairn_messages ORDER BY seq`,
    );
    expect(rows.map((row) => Number(row.seq))).toEqual([1, 2, 3, 4, 5, 6]);
    for (const { admin, schema } of others) expect(await versionsOf(admin, schema)).toEqual(ALL_VERSIONS);
    await Promise.all(stores.map((store) => store.close()));
  });
});
