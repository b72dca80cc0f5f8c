import { createHash } from 'node:crypto';
import type { ConversationMessage, ConversationStore } from '@cairn/core';
import type { ConversationEventBus } from '../../events/conversation-events.js';

// Messages read per store query while catching up.
const PAGE_SIZE = 200;

/**
 * Which incarnation of a conversation id a message belongs to: a short hash of the id of the
 * conversation's first message. Seqs restart at 1 when a deleted conversation's id is used again, so a
 * seq alone cannot tell the new history from the old one; this can.
 */
export function conversationEpoch(firstMessage: ConversationMessage): string {
  return createHash('sha256').update(firstMessage.id).digest('hex').slice(0, 8);
}

export interface MessageFeedOptions {
  store: ConversationStore;
  events: ConversationEventBus;
  conversationId: string;
  /** The last seq the client has (0 for none). */
  afterSeq: number;
  /**
   * The client resumes (`Last-Event-ID`): it has the messages up to `afterSeq` of the incarnation `epoch`
   * (any incarnation with a seq `afterSeq`, when not given). If the conversation is no longer that one
   * (deleted, perhaps re-created), the feed ends with `onDeleted` and sends nothing.
   */
  resume?: { epoch?: string };
  /** Delivers one message and its conversation's epoch; the next is sent after it resolves. */
  send(message: ConversationMessage, epoch: string): Promise<void>;
  /** The conversation was deleted: the feed has stopped. */
  onDeleted(): void;
  /** The store failed: the feed has stopped. */
  onError(error: unknown): void;
}

/**
 * Sends a conversation's stored messages after `afterSeq`, then each new one as the bus reports
 * changes. The store is the only source: a change notice just says "read from your last seq", so a
 * missed or repeated notice, another instance's turn or a reconnect never makes a gap or a
 * duplicate. Reads run one at a time; notices during a read cause one more read after it.
 *
 * The feed follows one incarnation of the conversation: a deletion notice ends it (`onDeleted`), and so
 * does finding, after any read, that the conversation's first message changed or is gone — which covers
 * a deletion notice the bus missed, and a read that raced with a deletion and re-creation. It never
 * sends a message of another incarnation. Returns the stop function.
 */
export function startMessageFeed(options: MessageFeedOptions): () => void {
  const { store, conversationId } = options;
  let lastSent = options.afterSeq;
  let epoch: string | undefined;
  let stale = false;
  let reading = false;
  let stopped = false;
  let deleted = false;

  const currentEpoch = async () => {
    const [first] = await store.load(conversationId, { limit: 1 });
    return first === undefined ? undefined : conversationEpoch(first);
  };

  // Whether the client's history (up to `afterSeq`) is this conversation's.
  const resumesThisConversation = async (resume: { epoch?: string }) => {
    const current = await currentEpoch();
    if (current === undefined || (resume.epoch !== undefined && resume.epoch !== current)) return false;
    epoch = current;
    if (resume.epoch !== undefined) return true;
    const [last] = await store.load(conversationId, { fromSeq: lastSent, limit: 1 });
    return last?.seq === lastSent;
  };

  const readNewMessages = async () => {
    if (options.resume !== undefined && lastSent > 0 && epoch === undefined) {
      if (!(await resumesThisConversation(options.resume))) {
        deleted = true;
        return;
      }
    }
    while (stale && !stopped) {
      stale = false;
      let page: ConversationMessage[];
      do {
        page = await store.load(conversationId, { fromSeq: lastSent + 1, limit: PAGE_SIZE });
        // Read after the page: if the page holds another incarnation's messages, this sees it (or a later one).
        const current = await currentEpoch();
        if (stopped) return;
        if (current === undefined && (page.length > 0 || epoch !== undefined)) {
          deleted = true;
          return;
        }
        epoch ??= current;
        if (current !== epoch) {
          deleted = true;
          return;
        }
        for (const message of page) {
          if (stopped) return;
          if (message.seq === undefined || message.seq <= lastSent || epoch === undefined) continue;
          await options.send(message, epoch);
          lastSent = message.seq;
        }
      } while (page.length === PAGE_SIZE);
    }
  };

  // Once the feed ended (deleted, failed, or stopped by its caller), nothing more is reported.
  let ended = false;
  let unsubscribed = false;
  const halt = () => {
    stopped = true;
    if (unsubscribed) return;
    unsubscribed = true;
    unsubscribe();
  };
  const end = (report: () => void) => {
    if (ended) return;
    ended = true;
    halt();
    report();
  };

  const check = () => {
    stale = true;
    if (reading || stopped) return;
    reading = true;
    readNewMessages().then(
      () => {
        reading = false;
        if (deleted) end(options.onDeleted);
        // A notice that came as the read finished.
        else if (stale && !stopped) check();
      },
      (error: unknown) => {
        reading = false;
        end(() => options.onError(error));
      },
    );
  };

  // Subscribed before the first read, so a message stored meanwhile is not missed.
  const unsubscribe = options.events.subscribe(conversationId, (event) => {
    if (stopped) return;
    if (event.deleted === true) {
      deleted = true;
      // A read in progress stops before its next send, then ends the feed.
      if (reading) stopped = true;
      else end(options.onDeleted);
      return;
    }
    // `-1` means "re-check"; an older seq is already sent.
    if (event.lastSeq === -1 || event.lastSeq > lastSent) check();
  });
  check();
  return () => end(() => {});
}
