import type { ConversationChanged } from '../events/conversation-events.js';

/**
 * The primary's part of the cluster's event bus: which workers follow which conversations (they have
 * an `/events` stream of it), so a change is passed on to those workers only, not to every worker.
 * A worker that starts following is sent a "re-read" notice (`lastSeq: -1`) once that is recorded: a
 * change relayed to the others while its request was on the way is read then, never missed.
 */
export class PrimaryEventRelay {
  private readonly followers = new Map<string, Set<number>>();

  constructor(private readonly send: (workerId: number, event: ConversationChanged) => void) {}

  /** A worker's first listener of the conversation came (`following`), or its last one went. */
  follow(workerId: number, conversationId: string, following: boolean): void {
    const workers = this.followers.get(conversationId);
    if (!following) {
      workers?.delete(workerId);
      if (workers?.size === 0) this.followers.delete(conversationId);
      return;
    }
    if (workers === undefined) this.followers.set(conversationId, new Set([workerId]));
    else workers.add(workerId);
    this.send(workerId, { conversationId, lastSeq: -1 });
  }

  /** A change published by worker `from` (which told its own listeners), for the other followers. */
  publish(from: number, event: ConversationChanged): void {
    for (const workerId of this.followers.get(event.conversationId) ?? []) {
      if (workerId !== from) this.send(workerId, event);
    }
  }

  /** A worker exited: it follows nothing any more. */
  releaseWorker(workerId: number): void {
    for (const [conversationId, workers] of this.followers) {
      workers.delete(workerId);
      if (workers.size === 0) this.followers.delete(conversationId);
    }
  }
}
