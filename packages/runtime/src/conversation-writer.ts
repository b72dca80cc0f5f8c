import { type AgentOutput, CairnError, type ConversationMessage, type ConversationStore } from '@cairn/core';
import { type Claim, claimRecord } from './ledger/claim-record.js';
import type { RuntimeEvent, RuntimeEventListener, RuntimeLogger } from './runtime-types.js';

const STORE_ATTEMPTS = 3;

// A store that is briefly unavailable (a busy database, a lock) is tried again, a little later.
async function withStoreRetry<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (attempt >= STORE_ATTEMPTS || !CairnError.is(error) || !error.retryable) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
    }
  }
}

/** How a turn (or a compression) tells the caller what happens, and stores what it writes. */
export interface ConversationWriter {
  /** Gives the caller an event; a listener that throws is logged, never the operation's failure. */
  emit(event: AgentOutput | RuntimeEvent): void;
  /**
   * Appends to the conversation (a briefly unavailable store is tried again); each message is
   * reported. The retry's idempotency key is the first message's id unless `idempotencyKey` is given.
   */
  persist(messages: ConversationMessage[], idempotencyKey?: string): Promise<ConversationMessage[]>;
  /** Claims a record's id (`claimRecord`); the record is reported when this claim stored it. */
  claim(record: ConversationMessage, isOwn: (held: ConversationMessage) => boolean): Promise<Claim>;
}

export function createConversationWriter(
  env: { store: ConversationStore; logger?: RuntimeLogger | undefined },
  conversationId: string,
  onEvent: RuntimeEventListener | undefined,
): ConversationWriter {
  const { store, logger } = env;
  // A listener is the caller's UI: its failure is logged, never the turn's failure.
  const emit = (event: AgentOutput | RuntimeEvent) => {
    // A moment of the event loop's own for the store: other turns' ends whose sync is done go on now.
    store.settleDurableWrites?.();
    try {
      onEvent?.(event);
    } catch (error) {
      logger?.warn(
        { conversationId, error: error instanceof Error ? error.name : typeof error },
        'event listener failed',
      );
    }
  };
  return {
    emit,
    async persist(messages, idempotencyKey) {
      if (messages.length === 0) return [];
      // The first id as the key: the retry of an append that may have landed is not stored twice.
      const key = idempotencyKey ?? (messages[0]?.id as string);
      const { messages: stored } = await withStoreRetry(() =>
        store.append(conversationId, messages, { idempotencyKey: key }),
      );
      for (const message of stored)
        emit({ type: 'runtime', event: 'message_persisted', conversationId, message });
      return stored;
    },
    async claim(record, isOwn) {
      const claim = await claimRecord(store, conversationId, record, isOwn);
      if (claim.claimed)
        emit({ type: 'runtime', event: 'message_persisted', conversationId, message: claim.record });
      return claim;
    },
  };
}
