import type { ConversationChanged } from './conversation-events.js';

type Listener = (event: ConversationChanged) => void;

/** The local fan-out both buses share: listeners by conversation, isolated from each other's failures. */
export class ConversationListeners {
  private readonly byConversation = new Map<string, Set<Listener>>();

  add(conversationId: string, listener: Listener): () => void {
    let listeners = this.byConversation.get(conversationId);
    if (listeners === undefined) {
      listeners = new Set();
      this.byConversation.set(conversationId, listeners);
    }
    // A wrapper, so subscribing the same function twice gives two independent subscriptions.
    const entry: Listener = (event) => listener(event);
    listeners.add(entry);
    return () => {
      listeners.delete(entry);
      if (listeners.size === 0 && this.byConversation.get(conversationId) === listeners) {
        this.byConversation.delete(conversationId);
      }
    };
  }

  /** Calls every listener of the event's conversation; one that throws does not stop the others. */
  emit(event: ConversationChanged, onListenerError: (error: unknown) => void = () => {}): void {
    // A copy, so a listener that unsubscribes (or subscribes) while being called changes nothing mid-loop.
    for (const listener of [...(this.byConversation.get(event.conversationId) ?? [])]) {
      try {
        listener(event);
      } catch (error) {
        onListenerError(error);
      }
    }
  }

  /** Whether the conversation has a listener. */
  has(conversationId: string): boolean {
    return this.byConversation.has(conversationId);
  }

  /** Conversations with at least one listener. */
  conversationIds(): string[] {
    return [...this.byConversation.keys()];
  }

  clear(): void {
    this.byConversation.clear();
  }
}
