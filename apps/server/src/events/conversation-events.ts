/**
 * A conversation changed: messages up to `lastSeq` are in the store. Published by whichever server
 * instance ran the turn; every instance's `/events` streams read the store from their last sent seq,
 * so the notice carries no message bodies and a missed notice loses nothing.
 */
export interface ConversationChanged {
  conversationId: string;
  /**
   * `-1` means "unknown, re-read the store": sent when the bus may have missed notices (the PostgreSQL bus
   * after its LISTEN connection reconnects).
   */
  lastSeq: number;
  /**
   * The conversation was deleted (`lastSeq` is then 0): live streams of it end. Published under the
   * conversation's turn lock, so it comes before any notice of a conversation re-created with that id.
   */
  deleted?: boolean;
}

/** Tells every server instance that a conversation changed (in-process, or PostgreSQL LISTEN/NOTIFY). */
export interface ConversationEventBus {
  publish(event: ConversationChanged): Promise<void>;
  /** Calls `listener` for each change of `conversationId`; returns the unsubscribe. */
  subscribe(conversationId: string, listener: (event: ConversationChanged) => void): () => void;
  /**
   * Resolves when the bus works (its connections are up); rejects (`STORE_UNAVAILABLE`) when not. For
   * `/readyz`. Absent means always ready.
   */
  ready?(): Promise<void>;
  close(): Promise<void>;
}
