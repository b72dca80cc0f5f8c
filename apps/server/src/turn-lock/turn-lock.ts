/**
 * Serialises the turns of one conversation across server instances: `run` waits until no other
 * instance holds the conversation, then runs `work` while holding it.
 */
export interface ConversationTurnLock {
  /**
   * Runs `work` holding the conversation. `work` is given `lockLost`, a signal that aborts if the lock is
   * lost while it runs (the PostgreSQL session holding it ended): another instance may take the
   * conversation from then on, so `work` must stop writing to it. Aborting `options.signal` while
   * waiting rejects with `LLM_ABORTED` and `work` never runs; once it runs, `options.signal` is its business.
   */
  run<T>(
    conversationId: string,
    work: (lockLost: AbortSignal) => Promise<T>,
    options?: { signal?: AbortSignal },
  ): Promise<T>;
  /**
   * Resolves when the lock can be used (its database answers); rejects (`STORE_UNAVAILABLE`) when not.
   * For `/readyz`. Absent means always ready.
   */
  ready?(): Promise<void>;
  close(): Promise<void>;
}
