import type { ConversationMessage } from '../messages/conversation-message.js';
import type { LeaseStore } from './lease-store.js';

/** Options of `ConversationStore.append`. */
export interface AppendOptions {
  /**
   * Optimistic concurrency: the last `seq` the caller saw (0 for an empty conversation). If another
   * writer appended since, the append fails with `STORE_CONFLICT` and nothing is written.
   */
  expectedSeq?: number;
  /**
   * Makes a retried append safe: a second append with the same key returns the first one's result
   * instead of writing the messages again (checked before `expectedSeq` and message ids).
   */
  idempotencyKey?: string;
}

/** What `append` stored. */
export interface AppendResult {
  /** The `seq` assigned to each message, in order: consecutive, starting after the previous last. */
  seqs: number[];
  /** The messages as stored: `seq` set, large tool outputs offloaded. */
  messages: ConversationMessage[];
}

/** Options of `ConversationStore.load`. */
export interface LoadOptions {
  /** First `seq` to return (inclusive). */
  fromSeq?: number;
  /** Last `seq` to return (inclusive). */
  toSeq?: number;
  /** At most this many messages. */
  limit?: number;
  /** `forward` (default) returns the oldest first; `backward` the newest first (for "last N"). */
  direction?: 'forward' | 'backward';
}

/** One row of `listConversations`. */
export interface ConversationSummary {
  id: string;
  createdAt: string;
  updatedAt: string;
  messageCount: number;
  /** The highest `seq` in the conversation (0 when empty). */
  lastSeq: number;
  /** The latest title record's title (a rename), else the first user message on one line. */
  title?: string;
}

/** Options of `ConversationStore.listConversations`. */
export interface ListConversationsOptions {
  /** The previous page's `nextCursor` (made with the same `search`). */
  cursor?: string;
  /** At most this many rows (1 to 1000, default 50). */
  limit?: number;
  /**
   * Only conversations whose title, or the text of any of their user or assistant messages (a
   * string `content` or a text part), contains this, case-insensitively: a plain substring, no
   * wildcards (`%`, `_`, `\` and regex characters match themselves). 1 to `MAX_SEARCH_LENGTH`
   * characters. Only for a store whose `capabilities.search` is true (see `assertStoreSearches`).
   */
  search?: string;
}

/** One page of conversations, most recently updated first. */
export interface ConversationPage {
  conversations: ConversationSummary[];
  /** Pass as `cursor` to get the next page; absent on the last page. */
  nextCursor?: string;
}

/** A byte range of a blob. */
export interface BlobRange {
  offset?: number;
  length?: number;
}

/** What a backend guarantees; the conformance kit skips what a backend does not claim. */
export interface StoreCapabilities {
  /** Data survives a restart of the process. */
  persistent: boolean;
  /** Several store instances (threads, processes, hosts) over the same data can append safely. */
  concurrentInstances: boolean;
  /**
   * `listConversations` takes `search`. Optional so that stores written before it still type-check;
   * absent means false, and such a store may ignore `search`: callers check first.
   */
  search?: boolean;
  /** `leases` is there. Optional like `search`: absent means false. */
  leases?: boolean;
}

/**
 * An append-only log of conversations. Order is the per-conversation `seq` the store assigns,
 * never a timestamp. Every id is checked with `assertSafeId` before it reaches a path or query.
 */
export interface ConversationStore {
  readonly capabilities: StoreCapabilities;
  /**
   * Appends messages in one atomic step: an assistant message and all its tool results land whole
   * or not at all. Tool outputs over `TOOL_OUTPUT_THRESHOLD` are offloaded to blobs, written only
   * once the append is accepted, so a refused append changes nothing.
   *
   * Message ids are unique within a conversation: a message whose id the conversation already
   * holds fails the append with `STORE_CONFLICT` (details: `messageId`, `seq`), even when it is
   * the same message; retry with the first append's `idempotencyKey` instead. A batch holding one
   * id twice is `INVALID_ARGUMENT`.
   */
  append(
    conversationId: string,
    messages: ConversationMessage[],
    options?: AppendOptions,
  ): Promise<AppendResult>;
  /** Messages in `seq` order (empty for an unknown conversation). */
  load(conversationId: string, options?: LoadOptions): Promise<ConversationMessage[]>;
  /**
   * One page of summaries, most recently updated first. A summary's `title` is the latest title
   * record's (see `titleRecord`), else the first user message's text.
   */
  listConversations(options?: ListConversationsOptions): Promise<ConversationPage>;
  /** Deletes a conversation and its blobs; false when there was none. */
  deleteConversation(conversationId: string): Promise<boolean>;
  /**
   * Stores bytes under a store-relative reference (`tool-results/<conversationId>/<messageId>.txt`),
   * checked with `assertSafeRef`. A string is stored as WTF-8 (UTF-8 that keeps lone surrogates),
   * so text comes back exactly.
   */
  putBlob(ref: string, data: string | Uint8Array): Promise<void>;
  /** Reads a blob, or part of it; `STORE_NOT_FOUND` when absent. */
  getBlob(ref: string, range?: BlobRange): Promise<Uint8Array>;
  /** Releases files, connections and locks. */
  close(): Promise<void>;
  /**
   * Optional. Ends, now, the waits of appends whose sync has already completed off the event loop (the
   * fs store's sync thread). Such a store notices completions from its own calls and a timer, which a
   * busy event loop runs late, so the runtime calls this on every event it streams: a cheap look.
   */
  settleDurableWrites?(): void;
  /** Optional. Leases shared by every process on this store (see `LeaseStore`); `capabilities.leases`. */
  readonly leases?: LeaseStore;
}
