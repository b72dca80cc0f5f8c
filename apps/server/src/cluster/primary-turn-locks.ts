/** A lock request of a worker: `request` is unique within that worker. */
interface Holder {
  workerId: number;
  request: number;
}

interface Queued extends Holder {
  /** Asked to give the lock back (another request waits behind it). */
  revoked?: boolean;
}

/**
 * The conversation turn locks of a cluster on the fs or SQLite store, kept by the primary: one holder
 * per conversation, the others waiting first come first served. A worker may keep a lock between
 * turns (see ipc-turn-lock.ts): the holder is asked for it back (`revoke`) as soon as another request
 * waits behind it. A worker that exits gives up everything it held or waited for (its turns died
 * with it).
 */
export class PrimaryTurnLocks {
  private readonly queues = new Map<string, Queued[]>();
  // `workerId:request` → its conversation, so a release touches one queue.
  private readonly conversationOf = new Map<string, string>();

  constructor(
    private readonly grant: (holder: Holder) => void,
    private readonly revoke: (holder: Holder) => void,
  ) {}

  acquire(conversationId: string, holder: Holder): void {
    const queue = this.queues.get(conversationId) ?? [];
    queue.push({ ...holder });
    this.conversationOf.set(`${holder.workerId}:${holder.request}`, conversationId);
    this.queues.set(conversationId, queue);
    if (queue.length === 1) this.grant(holder);
    else this.askBack(queue);
  }

  /** Releases a held lock, or withdraws a waiting request (the turn was aborted while it waited). */
  release(workerId: number, request: number): void {
    const key = `${workerId}:${request}`;
    const conversationId = this.conversationOf.get(key);
    if (conversationId === undefined) return;
    this.conversationOf.delete(key);
    this.removeFrom(conversationId, (holder) => holder.workerId === workerId && holder.request === request);
  }

  /** A worker exited: its locks pass to the next in line. */
  releaseWorker(workerId: number): void {
    for (const [key, conversationId] of [...this.conversationOf]) {
      if (!key.startsWith(`${workerId}:`)) continue;
      this.conversationOf.delete(key);
      this.removeFrom(conversationId, (holder) => holder.workerId === workerId);
    }
  }

  /** Conversations held or waited for (for tests and stats). */
  size(): number {
    return this.queues.size;
  }

  private removeFrom(conversationId: string, matches: (holder: Queued) => boolean): void {
    const queue = this.queues.get(conversationId);
    if (queue === undefined) return;
    const head = queue[0];
    const remaining = queue.filter((holder) => !matches(holder));
    if (remaining.length === 0) this.queues.delete(conversationId);
    else this.queues.set(conversationId, remaining);
    const next = remaining[0];
    if (next === undefined || next === head) return;
    this.grant({ workerId: next.workerId, request: next.request });
    this.askBack(remaining);
  }

  // The holder of a queue with someone waiting behind it is asked for the lock back, once.
  private askBack(queue: Queued[]): void {
    const head = queue[0];
    if (head === undefined || queue.length < 2 || head.revoked === true) return;
    head.revoked = true;
    this.revoke({ workerId: head.workerId, request: head.request });
  }
}
