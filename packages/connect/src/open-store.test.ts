import { appendFileSync, existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConversationMessage, ConversationStore } from '@cairn/core';
import type { QuarantineReport } from '@cairn/store-fs';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { openStore } from './open-store.js';
import type { StoreSettings } from './store-settings.js';
import { failure } from './test-support.js';

let dataDir: string;
const opened: ConversationStore[] = [];
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cairn-connect-store-'));
});
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function open(settings: Omit<StoreSettings, 'dataDir'>, options?: Parameters<typeof openStore>[1]) {
  const store = await openStore({ dataDir, ...settings }, options);
  opened.push(store);
  return store;
}

const message = (id: string, content: string): ConversationMessage => ({
  id,
  role: 'user',
  content,
  createdAt: '2026-01-01T00:00:00.000Z',
});

/** Appends two messages with one store and reads them back with a second one on the same data. */
async function roundTrip(settings: Omit<StoreSettings, 'dataDir'>, conversationId = 'chat-1') {
  const first = await open(settings);
  await first.append(conversationId, [message('m1', 'one'), message('m2', 'two')]);
  const second = await open(settings);
  return (await second.load(conversationId)).map(({ seq, content }) => [seq, content]);
}

describe('openStore', () => {
  it('opens the fs store under <dataDir>/store, passing quarantine reports on', async () => {
    expect(await roundTrip({ store: 'fs' })).toEqual([
      [1, 'one'],
      [2, 'two'],
    ]);
    const logFile = join(
      dataDir,
      'store',
      'projects',
      'default',
      'conversations',
      'chat-1',
      'messages.jsonl',
    );
    expect(existsSync(logFile)).toBe(true);
    appendFileSync(logFile, '{"seq":3,"msg":{"id":"m3","ro');
    const reports: QuarantineReport[] = [];
    const store = await open({ store: 'fs' }, { onQuarantine: (report) => reports.push(report) });
    expect(await store.load('chat-1')).toHaveLength(2);
    expect(reports).toEqual([expect.objectContaining({ conversationId: 'chat-1', reason: 'torn' })]);
  });

  it('opens one SQLite file, <dataDir>/conversations.db', async () => {
    expect(await roundTrip({ store: 'sqlite' })).toEqual([
      [1, 'one'],
      [2, 'two'],
    ]);
    expect(existsSync(join(dataDir, 'conversations.db'))).toBe(true);
  });

  it('opens PostgreSQL at the database URL', async () => {
    const conversationId = `connect-${process.pid}-${Date.now()}`;
    const settings = { store: 'postgres', databaseUrl: inject('databaseUrl') } as const;
    try {
      expect(await roundTrip(settings, conversationId)).toEqual([
        [1, 'one'],
        [2, 'two'],
      ]);
    } finally {
      await opened[0]?.deleteConversation(conversationId);
    }
  });

  it("needs a database URL for PostgreSQL, and says how to give it in the caller's terms", async () => {
    await expect(failure(openStore({ store: 'postgres', dataDir }))).resolves.toEqual({
      code: 'INVALID_ARGUMENT',
      message: '--store postgres needs a database',
      fix: 'set DATABASE_URL (or --database-url) to a postgres:// connection string',
    });
    const names = { store: 'CAIRN_STORE', databaseUrl: 'DATABASE_URL' };
    await expect(
      failure(openStore({ store: 'postgres', dataDir, databaseUrl: ' ' }, { names })),
    ).resolves.toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'CAIRN_STORE=postgres needs a database',
      fix: 'set DATABASE_URL to a postgres:// connection string',
    });
  });

  it('refuses a store it does not know, as settings from plain JavaScript may name', async () => {
    const settings = { store: 'mysql', dataDir } as unknown as StoreSettings;
    await expect(failure(openStore(settings))).resolves.toEqual({
      code: 'INVALID_ARGUMENT',
      message: '--store must be one of fs, sqlite, postgres, got "mysql"',
      fix: undefined,
    });
  });
});
