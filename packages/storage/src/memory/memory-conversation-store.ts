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
  definedFields,
  type ListConversationsOptions,
  type LoadOptions,
  type StoreCapabilities,
} from '@cairn/core';
import { assertNewMessageIds } from '../append/message-ids.js';
import {
  assertExpectedSeq,
  assignSeqs,
  type PreparedMessage,
  prepareAppend,
  replayIdempotentAppend,
} from '../append/prepare-append.js';
import { sliceBlob, toBlobBytes } from '../blob/blob-bytes.js';
import { conversationBlobPrefixes } from '../blob/conversation-blob-prefixes.js';
import { conversationMatchesSearch, foldSearchText } from '../list/conversation-search.js';
import { nextConversationTitle } from '../list/conversation-title.js';
import { normalizeListOptions, paginateMatchingSummaries, paginateSummaries } from '../list/list-cursor.js';
import { normalizeLoadOptions, selectRange } from '../load/normalize-load-options.js';
import { collectBlobs, type PendingBlob } from '../offload/collect-blobs.js';
import { MemoryLeaseStore } from './memory-lease-store.js';

interface MemoryConversation {
  messages: ConversationMessage[];
  createdAt: string;
  updatedAt: string;
  /** The latest title record's, else derived from the first append that has one; undefined until then. */
  title: string | undefined;
  /** idempotencyKey → the seqs of the append that used it. */
  appends: Map<string, number[]>;
  /** message id → its seq: ids are unique within a conversation. */
  ids: Map<string, number>;
}

/**
 * A `ConversationStore` in process memory: for tests, demos and short-lived agents. It behaves like
 * the persistent stores (same validation, seqs, offloading, errors) and passes the same conformance
 * kit, but its data ends with the process. Stored messages are copies, so callers cannot mutate them.
 */
export class MemoryConversationStore implements ConversationStore {
  readonly capabilities: StoreCapabilities = {
    persistent: false,
    concurrentInstances: false,
    search: true,
    leases: true,
  };
  readonly leases = new MemoryLeaseStore(() => this.#assertOpen());
  readonly #conversations = new Map<string, MemoryConversation>();
  readonly #blobs = new Map<string, Uint8Array>();
  #closed = false;

  #assertOpen(): void {
    if (this.#closed) throw new CairnError('STORE_UNAVAILABLE', 'The store is closed', { retryable: false });
  }

  async append(
    conversationId: string,
    messages: ConversationMessage[],
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    this.#assertOpen();
    // Prepared (checked, media bytes hashed) first, as the persistent stores do before their lock:
    // a 20 MB image holds up no other append. Its blobs are only collected; the checks and the
    // write are one synchronous step, so no other call interleaves (the lock of this store).
    const offloads = collectBlobs();
    const prepared = await prepareAppend(offloads.writer, conversationId, messages, options);
    this.#assertOpen();
    return this.#appendPrepared(conversationId, prepared, offloads.blobs, options);
  }

  #appendPrepared(
    conversationId: string,
    prepared: PreparedMessage[],
    blobs: readonly PendingBlob[],
    { expectedSeq, idempotencyKey }: AppendOptions,
  ): AppendResult {
    const existing = this.#conversations.get(conversationId);
    const stored = existing?.messages ?? [];
    const replayed = idempotencyKey === undefined ? undefined : existing?.appends.get(idempotencyKey);
    if (idempotencyKey !== undefined && replayed !== undefined) {
      const first = replayed[0] ?? 0;
      const previous = stored.filter((message) => (message.seq ?? 0) >= first).slice(0, replayed.length);
      return structuredClone(replayIdempotentAppend(conversationId, idempotencyKey, previous, prepared));
    }
    const lastSeq = stored.at(-1)?.seq ?? 0;
    assertExpectedSeq(conversationId, expectedSeq, lastSeq);
    assertNewMessageIds(conversationId, prepared, (id) => existing?.ids.get(id));
    if (prepared.length === 0) return { seqs: [], messages: [] };
    // Accepted: only now do its offloaded outputs become visible.
    for (const { ref, bytes, contentAddressed } of blobs) {
      if (contentAddressed && this.#blobs.get(ref)?.length === bytes.length) continue;
      this.#blobs.set(ref, bytes);
    }
    const added = assignSeqs(structuredClone(prepared), lastSeq);
    const now = new Date().toISOString();
    const conversation: MemoryConversation = existing ?? {
      messages: [],
      createdAt: now,
      updatedAt: now,
      title: undefined,
      appends: new Map(),
      ids: new Map(),
    };
    conversation.messages.push(...added);
    for (const message of added) conversation.ids.set(message.id, message.seq ?? 0);
    conversation.updatedAt = now;
    conversation.title = nextConversationTitle(conversation.title, added);
    const seqs = added.map((message) => message.seq ?? 0);
    if (idempotencyKey !== undefined) conversation.appends.set(idempotencyKey, seqs);
    this.#conversations.set(conversationId, conversation);
    return { seqs, messages: structuredClone(added) };
  }

  async load(conversationId: string, options?: LoadOptions): Promise<ConversationMessage[]> {
    this.#assertOpen();
    assertSafeId('conversationId', conversationId);
    const window = normalizeLoadOptions(options);
    const conversation = this.#conversations.get(conversationId);
    return conversation === undefined ? [] : structuredClone(selectRange(conversation.messages, window));
  }

  async listConversations(options?: ListConversationsOptions): Promise<ConversationPage> {
    this.#assertOpen();
    const normalized = normalizeListOptions(options);
    const summaries = [...this.#conversations].map(([id, conversation]) => ({
      id,
      createdAt: conversation.createdAt,
      updatedAt: conversation.updatedAt,
      messageCount: conversation.messages.length,
      lastSeq: conversation.messages.at(-1)?.seq ?? 0,
      ...definedFields({ title: conversation.title }),
    }));
    const { search } = normalized;
    if (search === undefined) return paginateSummaries(summaries, options);
    const folded = foldSearchText(search);
    // A scan: the in-memory store is for tests and small agents.
    return paginateMatchingSummaries(summaries, normalized, (summary) =>
      conversationMatchesSearch(summary.title, this.#conversations.get(summary.id)?.messages ?? [], folded),
    );
  }

  async deleteConversation(conversationId: string): Promise<boolean> {
    this.#assertOpen();
    assertSafeId('conversationId', conversationId);
    const prefixes = conversationBlobPrefixes(conversationId);
    for (const ref of this.#blobs.keys()) {
      if (prefixes.some((prefix) => ref.startsWith(prefix))) this.#blobs.delete(ref);
    }
    return this.#conversations.delete(conversationId);
  }

  async putBlob(ref: string, data: string | Uint8Array): Promise<void> {
    this.#assertOpen();
    assertSafeRef('blob ref', ref);
    this.#blobs.set(ref, toBlobBytes(data).slice());
  }

  async getBlob(ref: string, range?: BlobRange): Promise<Uint8Array> {
    this.#assertOpen();
    assertSafeRef('blob ref', ref);
    const blob = this.#blobs.get(ref);
    if (blob === undefined) throw new CairnError('STORE_NOT_FOUND', `No blob ${ref}`, { details: { ref } });
    return sliceBlob(blob, range).slice();
  }

  async close(): Promise<void> {
    this.#closed = true;
  }
}

/** A fresh in-memory store. */
export function createMemoryConversationStore(): MemoryConversationStore {
  return new MemoryConversationStore();
}
