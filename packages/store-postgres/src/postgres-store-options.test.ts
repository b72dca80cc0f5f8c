import { CairnError } from '@cairn/core';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPostgresConversationStore } from './postgres-conversation-store.js';

function codeOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    return CairnError.is(error) ? error.code : String(error);
  }
  return undefined;
}

describe('PostgresStoreOptions', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('without a connection string nor DATABASE_URL is INVALID_ARGUMENT, saying what to set', () => {
    vi.stubEnv('DATABASE_URL', undefined);
    expect(() => createPostgresConversationStore()).toThrow(/DATABASE_URL/);
    expect(codeOf(() => createPostgresConversationStore())).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => createPostgresConversationStore({ connectionString: ' ' }))).toBe('INVALID_ARGUMENT');
  });

  it('uses DATABASE_URL by default and creates no connection until first use', async () => {
    vi.stubEnv('DATABASE_URL', 'postgres://nobody@127.0.0.1:1/none');
    const store = createPostgresConversationStore();
    expect(store.capabilities).toEqual({
      persistent: true,
      concurrentInstances: true,
      search: true,
      leases: true,
    });
    expect(store.schema).toBe('public');
    await store.close();
  });

  it('accepts only plain lower-case identifiers as schema', async () => {
    const connectionString = 'postgres://nobody@127.0.0.1:1/none';
    for (const schema of ['Public', 'a-b', '1abc', 'a"b', 'x; DROP TABLE y', '', 'a'.repeat(64), 'ü']) {
      expect(
        codeOf(() => createPostgresConversationStore({ connectionString, schema })),
        schema,
      ).toBe('INVALID_ARGUMENT');
    }
    const store = createPostgresConversationStore({ connectionString, schema: `_a${'b'.repeat(61)}` });
    await store.close();
  });

  it('refuses ambiguous or meaningless combinations', async () => {
    const connectionString = 'postgres://nobody@127.0.0.1:1/none';
    const pool = new pg.Pool({ connectionString });
    expect(codeOf(() => createPostgresConversationStore({ connectionString, pool }))).toBe(
      'INVALID_ARGUMENT',
    );
    expect(codeOf(() => createPostgresConversationStore({ connectionString, config: {} }))).toBe(
      'INVALID_ARGUMENT',
    );
    expect(codeOf(() => createPostgresConversationStore({ pool, maxConnections: 5 }))).toBe(
      'INVALID_ARGUMENT',
    );
    expect(codeOf(() => createPostgresConversationStore({ connectionString, maxConnections: 0 }))).toBe(
      'INVALID_ARGUMENT',
    );
    expect(codeOf(() => createPostgresConversationStore({ connectionString, maxConnections: 1.5 }))).toBe(
      'INVALID_ARGUMENT',
    );
    await pool.end();
  });
});
