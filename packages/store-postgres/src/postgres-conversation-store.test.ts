import { findFreePort, startPostgres } from '@cairn/postgres-test-server';
import { caughtCairnError, userMessage } from '@cairn/storage/testkit';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { useTestSchema } from '../test/test-schema.js';
import { createPostgresConversationStore } from './postgres-conversation-store.js';

const message = (id: string, content = id) => userMessage(id, content);

describe('PostgresConversationStore', () => {
  it('leaves a caller-owned pool open on close() and ends its own', async () => {
    const { url, schema } = useTestSchema();
    const pool = new pg.Pool({ connectionString: url });
    const borrowed = createPostgresConversationStore({ pool, schema });
    await borrowed.append('c1', [message('m1')]);
    await borrowed.close();
    expect(pool.ended).toBe(false);
    expect((await pool.query(`SELECT count(*)::int AS n FROM "${schema}".cairn_messages`)).rows[0].n).toBe(1);
    expect((await caughtCairnError(borrowed.load('c1'))).code).toBe('STORE_UNAVAILABLE');
    await pool.end();

    const own = createPostgresConversationStore({ connectionString: url, schema, maxConnections: 2 });
    expect((await own.load('c1')).map((stored) => stored.id)).toEqual(['m1']);
    await own.close();
    await own.close();
    const closed = await caughtCairnError(own.load('c1'));
    expect(closed.code).toBe('STORE_UNAVAILABLE');
    expect(closed.retryable).toBe(false);
  });

  it('reports a database it cannot reach as STORE_UNAVAILABLE, retryable, and migrates once it is up', async () => {
    const port = await findFreePort();
    const store = createPostgresConversationStore({
      connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`,
    });
    const error = await caughtCairnError(store.load('c1'));
    expect(error.code).toBe('STORE_UNAVAILABLE');
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/ECONNREFUSED|connect/);
    const server = await startPostgres({ port });
    try {
      expect((await store.append('c1', [message('m1')])).seqs).toEqual([1]);
    } finally {
      await store.close();
      await server.stop();
    }
  }, 60_000);

  it('reports SQL nobody expected as STORE_UNAVAILABLE, not retryable, with the driver error as cause', async () => {
    const { url, schema, admin } = useTestSchema();
    const store = createPostgresConversationStore({ connectionString: url, schema });
    await store.append('c1', [message('m1')]);
    await admin.query(`DROP TABLE "${schema}".cairn_messages`);
    const error = await caughtCairnError(store.load('c1'));
    expect(error.code).toBe('STORE_UNAVAILABLE');
    expect(error.retryable).toBe(false);
    expect((error.cause as { code?: string }).code).toBe('42P01');
    expect((await caughtCairnError(store.append('c1', [message('m2')]))).code).toBe('STORE_UNAVAILABLE');
    await store.close();
  });

  it('never sends an unsafe id, ref or option to the database', async () => {
    const { url, schema } = useTestSchema();
    const pool = new pg.Pool({ connectionString: url });
    const query = vi.spyOn(pool, 'query');
    const connect = vi.spyOn(pool, 'connect');
    const store = createPostgresConversationStore({ pool, schema });
    for (const id of [
      "x'; DROP SCHEMA public CASCADE; --",
      '../x',
      'a\0b',
      '',
      'x'.repeat(200),
      'white space',
    ]) {
      expect((await caughtCairnError(store.append(id, [message('m')]))).code).toBe('INVALID_ID');
      expect((await caughtCairnError(store.load(id))).code).toBe('INVALID_ID');
      expect((await caughtCairnError(store.deleteConversation(id))).code).toBe('INVALID_ID');
      expect((await caughtCairnError(store.putBlob(`tool-results/${id}/x`, 'x'))).code).toBe('INVALID_ID');
      expect((await caughtCairnError(store.getBlob(`tool-results/${id}/x`))).code).toBe('INVALID_ID');
    }
    expect((await caughtCairnError(store.load('c1', { limit: -1 }))).code).toBe('INVALID_ARGUMENT');
    expect((await caughtCairnError(store.listConversations({ cursor: 'nope' }))).code).toBe(
      'INVALID_ARGUMENT',
    );
    const forged = Buffer.from(JSON.stringify(['yesterday', 'c1'])).toString('base64url');
    expect((await caughtCairnError(store.listConversations({ cursor: forged }))).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect((await caughtCairnError(store.getBlob('a', { offset: 1.5 }))).code).toBe('INVALID_ARGUMENT');
    expect(query).not.toHaveBeenCalled();
    expect(connect).not.toHaveBeenCalled();
    await store.close();
    await pool.end();
  });

  it('keeps titles and idempotency keys PostgreSQL text cannot hold (NUL, lone surrogates) exact', async () => {
    const { url, schema } = useTestSchema();
    const store = createPostgresConversationStore({ connectionString: url, schema });
    await store.append('c1', [message('m1', 'nul \u0000 and \ud800 alone')]);
    expect((await store.listConversations()).conversations[0]?.title).toBe('nul \u0000 and \ud800 alone');
    // Encoded as UTF-8 both keys would be U+FFFD: they must stay two keys.
    const first = await store.append('c1', [message('m2')], { idempotencyKey: 'k\ud800' });
    const second = await store.append('c1', [message('m3')], { idempotencyKey: 'k\ud801' });
    expect([first.seqs, second.seqs]).toEqual([[2], [3]]);
    expect((await store.append('c1', [message('m2')], { idempotencyKey: 'k\ud800' })).seqs).toEqual([2]);
    expect((await store.append('c1', [message('m4')], { idempotencyKey: 'nul\u0000' })).seqs).toEqual([4]);
    await store.close();
  });

  it('returns the ISO times it stored, whatever the session time zone', async () => {
    const { url, schema } = useTestSchema();
    const store = createPostgresConversationStore({
      config: { connectionString: url, options: '-c TimeZone=Pacific/Chatham' },
      schema,
    });
    const before = new Date().toISOString();
    await store.append('c1', [message('m1')]);
    const after = new Date().toISOString();
    const [summary] = (await store.listConversations()).conversations;
    expect(summary?.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(summary && summary.createdAt >= before && summary.updatedAt <= after).toBe(true);
    await store.close();
  });

  it('deletes only the deleted conversation’s tool outputs, though `_` is a LIKE wildcard', async () => {
    const { url, schema } = useTestSchema();
    const store = createPostgresConversationStore({ connectionString: url, schema });
    for (const ref of [
      'tool-results/a_b/t1.txt',
      'tool-results/axb/t1.txt',
      'tool-results/a_b0/t1.txt',
      'notes/a_b',
    ]) {
      await store.putBlob(ref, ref);
    }
    await store.append('a_b', [message('m1')]);
    expect(await store.deleteConversation('a_b')).toBe(true);
    expect((await caughtCairnError(store.getBlob('tool-results/a_b/t1.txt'))).code).toBe('STORE_NOT_FOUND');
    for (const ref of ['tool-results/axb/t1.txt', 'tool-results/a_b0/t1.txt', 'notes/a_b']) {
      expect(Buffer.from(await store.getBlob(ref)).toString()).toBe(ref);
    }
    await store.close();
  });
});
