import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CairnError } from '@cairn/core';
import { caughtCairnError, userMessage } from '@cairn/storage/testkit';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertConversationNumFits, assertSeqFits, MAX_CONVERSATION_NUM, MAX_SEQ } from './message-key.js';
import { createSqliteConversationStore } from './sqlite-conversation-store.js';

let dir: string;
let filename: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cairn-sqlite-key-'));
  filename = join(dir, 'cairn.db');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

// Keys read back exactly: past 2^53 a JavaScript number would round them.
function storedKeys(): bigint[] {
  const db = new Database(filename, { readonly: true });
  const keys = db.prepare('SELECT key FROM cairn_messages ORDER BY key').pluck().safeIntegers().all();
  db.close();
  return keys as bigint[];
}

const key = (num: number, seq: number) => (BigInt(num) << 32n) | BigInt(seq);

function sqlOnFile(sql: string, ...params: unknown[]): void {
  const db = new Database(filename);
  db.prepare(sql).run(...params);
  db.close();
}

describe('message keys', () => {
  it('allow seqs up to 2^32 - 1 and conversation numbers up to 2^31 - 1, so a key stays a positive int64', () => {
    expect(MAX_SEQ).toBe(4_294_967_295);
    expect(MAX_CONVERSATION_NUM).toBe(2_147_483_647);
    expect(key(MAX_CONVERSATION_NUM, MAX_SEQ)).toBe(2n ** 63n - 1n);
    expect(() => assertSeqFits('c1', MAX_SEQ)).not.toThrow();
    expect(() => assertConversationNumFits('c1', MAX_CONVERSATION_NUM)).not.toThrow();
    for (const refuse of [
      () => assertSeqFits('c1', MAX_SEQ + 1),
      () => assertConversationNumFits('c1', MAX_CONVERSATION_NUM + 1),
    ]) {
      expect(refuse).toThrow(
        expect.objectContaining({ code: 'STORE_UNAVAILABLE', retryable: false }) as CairnError,
      );
    }
  });

  it("are the conversation's number in the high 32 bits and the seq in the low 32", async () => {
    const store = createSqliteConversationStore({ filename });
    await store.append('c1', [userMessage('m1', 'a'), userMessage('m2', 'b')]);
    await store.append('c2', [userMessage('m3', 'c')]);
    await store.append('c1', [userMessage('m4', 'd')]);
    expect(storedKeys()).toEqual([key(1, 1), key(1, 2), key(1, 3), key(2, 1)]);
    await store.close();
  });

  it('hold seq 2^32 - 1, then refuse the next append whole', async () => {
    const store = createSqliteConversationStore({ filename });
    await store.append('c1', [userMessage('m1', 'first')]);
    await store.append('c2', [userMessage('m2', 'neighbour')]);
    // The last seq is read off the highest key: a row at seq 2^32 - 2 makes the next one 2^32 - 1.
    sqlOnFile(
      "INSERT INTO cairn_messages (key, at, message) VALUES (?, '2026-01-01T00:00:00.000Z', ?)",
      key(1, MAX_SEQ - 1),
      JSON.stringify({ ...userMessage('m3', 'skipped ahead'), seq: MAX_SEQ - 1 }),
    );
    expect((await store.append('c1', [userMessage('m4', 'last')])).seqs).toEqual([MAX_SEQ]);
    expect(storedKeys()).toEqual([key(1, 1), key(1, MAX_SEQ - 1), key(1, MAX_SEQ), key(2, 1)]);
    const error = await caughtCairnError(store.append('c1', [userMessage('m5', 'too far')]));
    expect(error.code).toBe('STORE_UNAVAILABLE');
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/c1 would pass seq 4294967295.*start a new conversation/);
    const seqs = async (options: Parameters<typeof store.load>[1]) =>
      (await store.load('c1', options)).map((message) => message.seq);
    expect(await seqs(undefined)).toEqual([1, MAX_SEQ - 1, MAX_SEQ]);
    expect(await seqs({ direction: 'backward', limit: 1 })).toEqual([MAX_SEQ]);
    expect(await seqs({ fromSeq: 2, toSeq: Number.MAX_SAFE_INTEGER })).toEqual([MAX_SEQ - 1, MAX_SEQ]);
    expect(await seqs({ fromSeq: MAX_SEQ + 1 })).toEqual([]);
    expect((await store.listConversations()).conversations.find(({ id }) => id === 'c1')?.lastSeq).toBe(
      MAX_SEQ,
    );
    expect(await store.deleteConversation('c1')).toBe(true);
    expect(storedKeys()).toEqual([key(2, 1)]);
    await store.close();
  });

  it('number conversations up to 2^31 - 1, then refuse a new one whole', async () => {
    const store = createSqliteConversationStore({ filename });
    sqlOnFile(
      "INSERT INTO cairn_conversations (num, id, created_at) VALUES (?, 'highest', '2026-01-01T00:00:00.000Z')",
      MAX_CONVERSATION_NUM,
    );
    expect((await store.append('highest', [userMessage('m1', 'fits')])).seqs).toEqual([1]);
    expect(storedKeys()).toEqual([key(MAX_CONVERSATION_NUM, 1)]);
    expect((await store.load('highest')).map((message) => message.content)).toEqual(['fits']);
    const error = await caughtCairnError(store.append('new', [userMessage('m2', 'no number left')]));
    expect(error.code).toBe('STORE_UNAVAILABLE');
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/No number is left for conversation new/);
    expect(await store.load('new')).toEqual([]);
    expect(storedKeys()).toEqual([key(MAX_CONVERSATION_NUM, 1)]);
    // Numbers follow the highest in use: deleting it frees them again.
    expect(await store.deleteConversation('highest')).toBe(true);
    expect((await store.append('new', [userMessage('m2', 'numbered')])).seqs).toEqual([1]);
    expect(storedKeys()).toEqual([key(1, 1)]);
    await store.close();
  });
});
