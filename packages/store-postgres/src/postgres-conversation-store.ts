import {
  type AppendOptions,
  type AppendResult,
  assertSafeId,
  assertSafeRef,
  type BlobRange,
  CairnError,
  type ConversationMessage,
  type ConversationPage,
  type ConversationStore,
  type LeaseStore,
  type ListConversationsOptions,
  type LoadOptions,
  type StoreCapabilities,
} from '@cairn/core';
import {
  collectBlobs,
  normalizeBlobRange,
  normalizeLoadOptions,
  prepareAppend,
  toBlobBytes,
} from '@cairn/storage';
import type { Pool } from 'pg';
import { appendBatch } from './append/append-batch.js';
import { deleteConversationBlobs, selectBlob, upsertBlob } from './blob/blob-queries.js';
import { toStoreError } from './errors/to-store-error.js';
import { PostgresLeaseStore } from './lease/postgres-lease-store.js';
import { normalizeListWindow, selectConversations } from './list/select-conversations.js';
import { selectMessages } from './load/select-messages.js';
import { type PostgresStoreOptions, resolvePostgresStoreOptions } from './postgres-store-options.js';
import { migrateSchema } from './schema/migrate-schema.js';
import { conversationLockName, type SchemaTables, schemaTables } from './schema/schema-tables.js';
import { inTransaction, lockTransaction } from './sql/in-transaction.js';

/**
 * A `ConversationStore` in PostgreSQL, for several server instances (and processes) sharing one
 * database. Every append is one transaction under a per-conversation advisory lock, so writers on
 * any instance get consecutive seqs and atomic batches. The tables live in one schema, migrated on
 * first use. Ids are checked before any query; driver failures become `STORE_UNAVAILABLE`.
 */
export class PostgresConversationStore implements ConversationStore {
  readonly capabilities: StoreCapabilities = {
    persistent: true,
    concurrentInstances: true,
    search: true,
    leases: true,
  };
  /** Run leases shared by every instance on this schema. */
  readonly leases: LeaseStore;
  readonly #pool: Pool;
  readonly #ownsPool: boolean;
  readonly #tables: SchemaTables;
  #migration: Promise<void> | undefined;
  #closing: Promise<void> | undefined;

  constructor(options: PostgresStoreOptions = {}) {
    const { pool, ownsPool, schema } = resolvePostgresStoreOptions(options);
    this.#pool = pool;
    this.#ownsPool = ownsPool;
    this.#tables = schemaTables(schema);
    this.leases = new PostgresLeaseStore(this.#tables, (action, text, values) =>
      this.#run(action, async () => {
        await this.#ready();
        return (await this.#pool.query(text, values)).rows;
      }),
    );
  }

  /** The schema holding this store's tables. */
  get schema(): string {
    return this.#tables.schema;
  }

  // Validation runs in `work` before `#ready()`, so a bad id or option never reaches the database.
  async #run<T>(action: string, work: () => Promise<T>): Promise<T> {
    if (this.#closing !== undefined) {
      throw new CairnError('STORE_UNAVAILABLE', 'The store is closed', { retryable: false });
    }
    try {
      return await work();
    } catch (error) {
      throw toStoreError(error, action);
    }
  }

  // Migrates once per store instance; a failed attempt (database down) is retried by the next call.
  #ready(): Promise<void> {
    this.#migration ??= migrateSchema(this.#pool, this.#tables).catch((error: unknown) => {
      this.#migration = undefined;
      throw error;
    });
    return this.#migration;
  }

  append(
    conversationId: string,
    messages: ConversationMessage[],
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    return this.#run('append', async () => {
      // Validation happens before the transaction; offloaded outputs are collected and written
      // under the conversation's lock, so a concurrent delete cannot orphan them.
      const offloads = collectBlobs();
      const prepared = await prepareAppend(offloads.writer, conversationId, messages, options);
      await this.#ready();
      return inTransaction(this.#pool, (client) =>
        appendBatch(client, this.#tables, conversationId, prepared, options, offloads.blobs),
      );
    });
  }

  load(conversationId: string, options?: LoadOptions): Promise<ConversationMessage[]> {
    return this.#run('load', async () => {
      assertSafeId('conversationId', conversationId);
      const window = normalizeLoadOptions(options);
      await this.#ready();
      return selectMessages(this.#pool, this.#tables, conversationId, window);
    });
  }

  listConversations(options?: ListConversationsOptions): Promise<ConversationPage> {
    return this.#run('listConversations', async () => {
      const page = normalizeListWindow(options);
      await this.#ready();
      return selectConversations(this.#pool, this.#tables, page);
    });
  }

  deleteConversation(conversationId: string): Promise<boolean> {
    return this.#run('deleteConversation', async () => {
      assertSafeId('conversationId', conversationId);
      await this.#ready();
      // Under the conversation's lock, so a delete never interleaves with an append in flight.
      return inTransaction(this.#pool, async (client) => {
        await lockTransaction(client, conversationLockName(this.#tables, conversationId));
        await client.query(`DELETE FROM ${this.#tables.messages} WHERE conversation_id = $1`, [
          conversationId,
        ]);
        await client.query(`DELETE FROM ${this.#tables.appends} WHERE conversation_id = $1`, [
          conversationId,
        ]);
        await client.query(`DELETE FROM ${this.#tables.messageIds} WHERE conversation_id = $1`, [
          conversationId,
        ]);
        await deleteConversationBlobs(client, this.#tables, conversationId);
        const deleted = await client.query(`DELETE FROM ${this.#tables.conversations} WHERE id = $1`, [
          conversationId,
        ]);
        return (deleted.rowCount ?? 0) > 0;
      });
    });
  }

  putBlob(ref: string, data: string | Uint8Array): Promise<void> {
    return this.#run('putBlob', async () => {
      assertSafeRef('blob ref', ref);
      const bytes = toBlobBytes(data);
      await this.#ready();
      await upsertBlob(this.#pool, this.#tables, ref, bytes);
    });
  }

  getBlob(ref: string, range?: BlobRange): Promise<Uint8Array> {
    return this.#run('getBlob', async () => {
      assertSafeRef('blob ref', ref);
      const window = normalizeBlobRange(range);
      await this.#ready();
      return selectBlob(this.#pool, this.#tables, ref, window);
    });
  }

  /** Ends the pool the store created; a caller-owned pool stays open. Later calls fail with STORE_UNAVAILABLE. */
  close(): Promise<void> {
    this.#closing ??= this.#ownsPool ? this.#pool.end() : Promise.resolve();
    return this.#closing;
  }
}

/** A PostgreSQL store; see `PostgresStoreOptions`. Throws `INVALID_ARGUMENT` for bad options. */
export function createPostgresConversationStore(
  options: PostgresStoreOptions = {},
): PostgresConversationStore {
  return new PostgresConversationStore(options);
}
