/**
 * Serialises the turns of one conversation across server instances: `run` waits until no other
 * instance holds the conversation, then runs `work` while holding it.
 */
export interface ConversationTurnLock {
  run<T>(conversationId: string, work: () => Promise<T>, options?: { signal?: AbortSignal }): Promise<T>;
  close(): Promise<void>;
}
