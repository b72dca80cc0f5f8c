import type { ConversationMessage, ConversationStore } from '@cairn/core';

/**
 * Appends log messages one at a time, in order, through one promise chain (the processor emits
 * synchronously; the store is async). Each append has the message id as its idempotency key, so
 * a retried append never duplicates a message. The first failure of the store stops all later
 * writes and is reported once to `onFailure`.
 */
export class LogWriter {
  private chain: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | undefined;

  constructor(
    private readonly store: ConversationStore,
    private readonly conversationId: string,
    /** Each message as stored (with its `seq`). Must not throw. */
    private readonly onStored: (message: ConversationMessage) => void,
    private readonly onFailure: (error: unknown) => void,
  ) {}

  write(message: ConversationMessage): void {
    if (this.failure !== undefined) return;
    this.chain = this.chain
      .then(async () => {
        if (this.failure !== undefined) return;
        const { messages } = await this.store.append(this.conversationId, [message], {
          idempotencyKey: message.id,
        });
        for (const stored of messages) this.onStored(stored);
      })
      .catch((error: unknown) => {
        if (this.failure !== undefined) return;
        this.failure = { error };
        this.onFailure(error);
      });
  }

  /** Waits for every write so far; rejects with the first failure. */
  async flush(): Promise<void> {
    await this.chain;
    if (this.failure !== undefined) throw this.failure.error;
  }
}
