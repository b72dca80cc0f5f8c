import { randomBytes } from 'node:crypto';
import { readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type AppendOptions,
  type AppendResult,
  assertSafeId,
  type BlobRange,
  CairnError,
  type ConversationMessage,
  type ConversationPage,
  type ConversationStore,
  KeyedSerialQueue,
  type LeaseStore,
  type ListConversationsOptions,
  type LoadOptions,
  type StoreCapabilities,
} from '@cairn/core';
import {
  assertExpectedSeq,
  assertNewMessageIds,
  assignSeqs,
  collectBlobs,
  normalizeLoadOptions,
  type PendingBlob,
  prepareAppend,
  replayIdempotentAppend,
  selectRange,
  toBlobBytes,
} from '@cairn/storage';
import { hasBlobOfSize, readBlobFile, writeBlobFile } from './blob-files.js';
import { listConversationPage } from './conversation-listing.js';
import type { LockOptions } from './conversation-lock.js';
import { ConversationLog, type ConversationLogOptions } from './conversation-log.js';
import { createFsStoreParts, type FsStoreInternals } from './create-fs-store-parts.js';
import { endsTurn } from './ends-turn.js';
import type { FileSyncer } from './file-syncer.js';
import type { FsLayout } from './fs-layout.js';
import type { FsConversationStoreOptions, FsDurability } from './fs-store-options.js';
import { recoverStoreJournals } from './journal-recovery.js';
import { lockLapsed } from './lock-lapsed.js';
import type { LockLeases } from './lock-leases.js';
import { recordsEnd } from './log-padding.js';
import { decodeCleanLog, decodeLog, encodeRecords } from './log-record.js';
import { LogTextCache } from './log-text-cache.js';
import { exists, isMissing } from './missing-files.js';
import type { WriteAheadJournal } from './write-ahead-journal.js';

// The logs' text kept for loads, in all (a thousand conversations of 32 KB).
const LOG_TEXT_CACHE_CHARS = 32 * 1024 * 1024;

/**
 * The embedded default store: one append-only JSONL log per conversation (each line carries its
 * `seq` and a CRC-32; with durability 'append' the log is followed by preallocated zero bytes),
 * appended with one `write()` where its records end, under a per-conversation lock file, so several processes can share a data directory. Torn or corrupt
 * lines are moved to a `.corrupt` side file and reported, never deleted.
 */
export class FsConversationStore implements ConversationStore {
  readonly capabilities: StoreCapabilities = {
    persistent: true,
    concurrentInstances: true,
    search: true,
    leases: true,
  };
  readonly layout: FsLayout;
  /** Run leases shared by every process on this data directory. */
  readonly leases: LeaseStore;
  readonly #durability: FsDurability;
  readonly #maxOpenLogs: number;
  readonly #locks: LockLeases;
  readonly #logs = new Map<string, ConversationLog>();
  readonly #logOptions: ConversationLogOptions;
  readonly #queue = new KeyedSerialQueue();
  readonly #texts = new LogTextCache(LOG_TEXT_CACHE_CHARS);
  readonly #syncer: FileSyncer;
  readonly #lockOptions: LockOptions;
  /** Where appends are journaled for their syncs (durability 'turn' and 'append'). */
  readonly #journal: WriteAheadJournal | undefined;
  /** The recovery of dead processes' journals, done before anything is read or written. */
  #recovery: Promise<void> | undefined;
  /** Appends written and waiting for their sync: close() waits for them. */
  readonly #syncing = new Set<Promise<void>>();
  #closed = false;

  /** `internals` are what tests swap in (see `FsStoreInternals`). */
  constructor(options: FsConversationStoreOptions, internals: FsStoreInternals = {}) {
    const parts = createFsStoreParts(options, internals, () => this.#assertOpen());
    this.layout = parts.layout;
    this.leases = parts.leases;
    this.#durability = parts.durability;
    this.#maxOpenLogs = parts.maxOpenLogs;
    this.#locks = parts.locks;
    this.#logOptions = parts.logOptions;
    this.#syncer = parts.syncer;
    this.#lockOptions = parts.lockOptions;
    this.#journal = parts.journal;
  }

  /**
   * Writes back into the logs what the journals of processes gone since lack there (see
   * `recoverJournals`), once per store, before its first read or write. A failure is retried by the
   * next call.
   */
  #recovered(): Promise<void> {
    this.#recovery ??= recoverStoreJournals({
      dir: this.layout.journalDir,
      lockFile: this.layout.journalLockFile,
      lockOptions: this.#lockOptions,
      replay: (conversationId, records) =>
        this.#exclusive(conversationId, async (log) => {
          await log.replay(records);
        }),
    }).catch((error: unknown) => {
      // Tried again by the next call.
      this.#recovery = undefined;
      throw error;
    });
    return this.#recovery;
  }

  #assertOpen(): void {
    if (this.#closed) throw new CairnError('STORE_UNAVAILABLE', 'The store is closed', { retryable: false });
  }

  #log(conversationId: string): ConversationLog {
    let log = this.#logs.get(conversationId);
    if (log === undefined) {
      log = new ConversationLog(conversationId, this.#logOptions);
      this.#evictIdleLogs();
    } else {
      this.#logs.delete(conversationId);
    }
    this.#logs.set(conversationId, log);
    return log;
  }

  #evictIdleLogs(): void {
    for (const [id, log] of this.#logs) {
      if (this.#logs.size < this.#maxOpenLogs) return;
      if (this.#queue.has(id)) continue;
      log.close();
      this.#logs.delete(id);
      this.#texts.delete(id);
    }
  }

  /**
   * Runs `work` with the conversation to itself: after this instance's earlier work on it (an
   * in-process queue, so the instance never contends with itself) and under the lock file that
   * keeps other processes out.
   */
  #exclusive<T>(
    conversationId: string,
    work: (log: ConversationLog, continued: boolean) => Promise<T>,
  ): Promise<T> {
    return this.#queue.run(conversationId, () => {
      const log = this.#log(conversationId);
      return this.#locks.run(log.lockFile, (continued) => work(log, continued));
    });
  }

  async append(
    conversationId: string,
    messages: ConversationMessage[],
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    this.#assertOpen();
    // The first append's journal file is made meanwhile (a store only read never makes one).
    this.#journal?.prepare();
    await this.#recovered();
    // Checked, copied and its media bytes hashed before the lock: a 20 MB image holds up no other
    // writer. Its blobs are only collected here, and written under the lock once it is accepted.
    const offloads = collectBlobs();
    const prepared = await prepareAppend(offloads.writer, conversationId, messages, options);
    const { result, durable } = await this.#exclusive(conversationId, async (log, continued) => {
      this.#assertOpen();
      // Holding the lock since our last look means the cached state is still the file's.
      const existing = continued ? (log.cached ?? (await log.refresh())) : await log.refresh();
      const { idempotencyKey, expectedSeq } = options;
      if (existing !== undefined && idempotencyKey !== undefined) {
        const previous = await log.readAppend(existing, idempotencyKey);
        if (previous !== undefined)
          return { result: replayIdempotentAppend(conversationId, idempotencyKey, previous, prepared) };
      }
      assertExpectedSeq(conversationId, expectedSeq, existing?.lastSeq ?? 0);
      assertNewMessageIds(conversationId, prepared, (id) => existing?.ids.get(id));
      if (prepared.length === 0) return { result: { seqs: [], messages: [] } };
      // Accepted: the outputs are written now, under the lock, so a delete cannot remove them
      // before the messages land, and a lock another process may have taken over writes nothing.
      if (!this.#locks.isFresh(log.lockFile)) throw lockLapsed(conversationId);
      for (const blob of offloads.blobs) await this.#writePendingBlob(blob);
      const state = existing ?? (await log.create());
      const stored = assignSeqs(prepared, state.lastSeq);
      const at = new Date().toISOString();
      const { bytes, records } = encodeRecords(stored, at, idempotencyKey);
      const sync = this.#durability === 'append' || (this.#durability === 'turn' && endsTurn(prepared));
      // The journal's room is made before the last check: from there to the write nothing waits.
      await this.#journal?.reserve();
      const lease = this.#locks.holding(log.lockFile);
      if (lease === undefined) throw lockLapsed(conversationId);
      const before = state.size;
      const durable = log.write(state, bytes, records, sync);
      this.#texts.extend(conversationId, lease, before, state.size, bytes.toString('utf8'));
      const result: AppendResult = { seqs: stored.map((message) => message.seq ?? 0), messages: stored };
      return { result, durable };
    });
    // The sync is awaited outside the conversation's queue and lock: the appends written meanwhile
    // (this process's and others') share the next sync instead of each waiting for its own.
    if (durable !== undefined) {
      this.#syncing.add(durable);
      try {
        await durable;
      } catch (error) {
        // What the text says was written may not be in the file.
        this.#texts.delete(conversationId);
        throw error;
      } finally {
        this.#syncing.delete(durable);
      }
    }
    return result;
  }

  async load(conversationId: string, options?: LoadOptions): Promise<ConversationMessage[]> {
    this.#assertOpen();
    // A turn's start: a moment of the main thread's own to end the turns whose sync is done.
    this.#journal?.poll();
    await this.#recovered();
    const window = normalizeLoadOptions(options);
    const lease = this.#locks.holding(this.layout.lockFile(conversationId));
    const state = this.#logs.get(conversationId)?.cached;
    const known =
      lease === undefined || state === undefined
        ? undefined
        : this.#texts.get(conversationId, lease, state.size);
    if (known !== undefined) {
      // The cache holds what this instance wrote, or read and checked, under the lease.
      const records = decodeCleanLog(known, { checksums: false });
      if (records !== undefined)
        return selectRange(
          records.map((record) => record.msg),
          window,
        );
      this.#texts.delete(conversationId);
    }
    const file = this.layout.logFile(conversationId);
    // A new conversation's load (a turn's start) finds nothing without a trip to libuv's pool.
    const bytes = !exists(file)
      ? undefined
      : await readFile(file).catch((error: unknown) => {
          if (isMissing(error)) return undefined;
          throw error;
        });
    const end = bytes === undefined ? 0 : recordsEnd(bytes);
    const text = bytes?.toString('utf8', 0, end);
    let records = text === undefined ? undefined : decodeCleanLog(text);
    // Read under a lease held since, to the length this instance last wrote: the text is the log's.
    if (
      records !== undefined &&
      text !== undefined &&
      lease !== undefined &&
      this.#locks.holding(this.layout.lockFile(conversationId)) === lease &&
      this.#logs.get(conversationId)?.cached?.size === end
    ) {
      this.#texts.set(conversationId, lease, end, text);
    }
    // A torn tail may be another process's append in flight: re-read under the lock, which waits
    // for it, and quarantines what is really corrupt. A missing log may be a legacy array.
    if (records === undefined) {
      if (bytes === undefined && !exists(this.layout.legacyFile(conversationId))) return [];
      const buffer = await this.#exclusive(conversationId, async (log) =>
        (await log.refresh()) === undefined ? undefined : readFile(file),
      );
      if (buffer === undefined) return [];
      records = decodeLog(buffer).records;
    }
    return selectRange(
      records.map((record) => record.msg),
      window,
    );
  }

  settleDurableWrites(): void {
    this.#journal?.poll();
  }

  async listConversations(options?: ListConversationsOptions): Promise<ConversationPage> {
    this.#assertOpen();
    await this.#recovered();
    return listConversationPage(
      {
        layout: this.layout,
        cachedSummary: (conversationId, stats) => this.#logs.get(conversationId)?.cachedSummary(stats),
        migrateLegacy: async (conversationId) => {
          if (!exists(this.layout.legacyFile(conversationId))) return false;
          await this.#exclusive(conversationId, (log) => log.refresh());
          return true;
        },
        load: (conversationId) => this.load(conversationId),
      },
      options,
    );
  }

  async deleteConversation(conversationId: string): Promise<boolean> {
    this.#assertOpen();
    assertSafeId('conversationId', conversationId);
    await this.#recovered();
    return this.#exclusive(conversationId, async (log) => {
      log.close();
      this.#logs.delete(conversationId);
      this.#texts.delete(conversationId);
      const existed =
        exists(this.layout.logFile(conversationId)) || exists(this.layout.legacyFile(conversationId));
      // The blobs go first, while the lock is held: the rename below moves the lock file away, and
      // an append waiting for it would write blobs of a new conversation that a later rm removed.
      for (const dir of this.layout.conversationBlobDirs(conversationId)) {
        await rm(dir, { recursive: true, force: true });
      }
      // Renaming makes the delete of the log atomic for readers; the lock file moves with the directory.
      const trash = join(
        this.layout.conversationsDir,
        `.deleted-${conversationId}-${randomBytes(6).toString('hex')}`,
      );
      await rename(this.layout.conversationDir(conversationId), trash);
      this.#locks.forget(this.layout.lockFile(conversationId));
      await rm(trash, { recursive: true, force: true });
      return existed;
    });
  }

  // A media part's blob already there holds its bytes (its name is their hash): an image sent again
  // is not written again. One of another size (a damaged file) is replaced by the right bytes.
  async #writePendingBlob({ ref, bytes, contentAddressed }: PendingBlob): Promise<void> {
    if (contentAddressed && (await hasBlobOfSize(this.layout.blobFile(ref), bytes.length))) return;
    await this.putBlob(ref, bytes);
  }

  async putBlob(ref: string, data: string | Uint8Array): Promise<void> {
    this.#assertOpen();
    await writeBlobFile(this.layout.blobFile(ref), toBlobBytes(data), this.#durability !== 'none');
  }

  async getBlob(ref: string, range?: BlobRange): Promise<Uint8Array> {
    this.#assertOpen();
    return readBlobFile(this.layout.blobFile(ref), ref, range);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#queue.settled();
    await Promise.allSettled([...this.#syncing]);
    // The journal's last syncs of the logs, then its files go.
    await this.#journal?.close();
    await this.#syncer.close();
    this.#locks.releaseAll();
    for (const log of this.#logs.values()) log.close();
    this.#logs.clear();
  }
}

/** The file store over `options.rootDir` (created on first write). */
export function createFsConversationStore(options: FsConversationStoreOptions): FsConversationStore {
  return new FsConversationStore(options);
}
