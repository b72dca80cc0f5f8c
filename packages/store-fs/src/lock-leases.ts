import { existsSync, unlinkSync } from 'node:fs';
import { acquireLock, type HeldLock, type LockOptions, wantFile } from './conversation-lock.js';

interface Lease {
  lock: HeldLock;
  acquiredAt: number;
}

const liveLeases = new Set<LockLeases>();
// A process that exits without close() still leaves no lock behind.
process.once('exit', () => {
  for (const leases of liveLeases) leases.releaseAll();
});

/**
 * Keeps a conversation's lock file between consecutive appends of one store instance, so a run of
 * appends pays for one lock instead of one per append. The lease ends as soon as the event loop
 * goes idle (a timer), when another process leaves a "want" marker, and well before it could look
 * stale to others; so other processes wait no longer than for an ordinary append.
 */
export class LockLeases {
  readonly #leases = new Map<string, Lease>();
  #releaseTimer: NodeJS.Timeout | undefined;
  // Runs in progress per lock: an idle release must never pull a lock from under one.
  readonly #active = new Map<string, number>();

  constructor(private readonly options: LockOptions) {}

  /**
   * Runs `work` holding the lock at `path`. `work` learns whether the lock was held without a break
   * since the previous `run` on this path: if so, no other process can have touched the data.
   */
  async run<T>(path: string, work: (continued: boolean) => Promise<T>): Promise<T> {
    this.#active.set(path, (this.#active.get(path) ?? 0) + 1);
    try {
      let lease = this.#leases.get(path);
      const stale = lease !== undefined && Date.now() - lease.acquiredAt > this.options.staleMs / 3;
      // A waiter's marker is looked for before every run (a stat): the waiter is served after the
      // run in progress, however fast this instance appends.
      if (lease !== undefined && (stale || existsSync(wantFile(path)))) {
        this.release(path);
        lease = undefined;
      }
      const continued = lease !== undefined;
      if (lease === undefined) {
        // Never wait for one lock while idly holding others: two processes doing that to each
        // other would both time out.
        this.#releaseIdle();
        const lock = await acquireLock(path, this.options);
        lease = { lock, acquiredAt: lock.acquiredAt };
        this.#leases.set(path, lease);
        liveLeases.add(this);
      }
      return await work(continued);
    } finally {
      const active = (this.#active.get(path) ?? 1) - 1;
      if (active === 0) this.#active.delete(path);
      else this.#active.set(path, active);
      this.#releaseWhenIdle();
    }
  }

  /**
   * Whether the lock at `path` is still this instance's beyond doubt: held, and young enough that
   * no other process can have judged it stale and taken it over. A write that trusts cached state
   * asks this first: a run slowed past `staleMs` (a big blob, a paused process) must not write.
   */
  isFresh(path: string): boolean {
    const lease = this.#leases.get(path);
    return lease !== undefined && Date.now() - lease.acquiredAt < this.options.staleMs / 2;
  }

  #releaseWhenIdle(): void {
    if (this.#releaseTimer !== undefined) return;
    this.#releaseTimer = setTimeout(() => {
      this.#releaseTimer = undefined;
      this.#releaseIdle();
    }, 0);
    this.#releaseTimer.unref();
  }

  /** Gives back every lease no run is using. */
  #releaseIdle(): void {
    for (const path of [...this.#leases.keys()]) if (!this.#active.has(path)) this.release(path);
    if (this.#leases.size === 0) liveLeases.delete(this);
  }

  /** Gives the lock at `path` back (a waiter's marker is cleared first, so it is not honoured twice). */
  release(path: string): void {
    const lease = this.#leases.get(path);
    if (lease === undefined) return;
    this.#leases.delete(path);
    try {
      unlinkSync(wantFile(path));
    } catch {
      // No one was waiting.
    }
    lease.lock.release();
  }

  /** Forgets a lease whose lock file went away with its directory (a deleted conversation). */
  forget(path: string): void {
    this.#leases.delete(path);
  }

  releaseAll(): void {
    for (const path of [...this.#leases.keys()]) this.release(path);
    liveLeases.delete(this);
  }
}
