import { existsSync, type FSWatcher, unlinkSync, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import { acquireLock, type HeldLock, type LockOptions, wantFile } from './conversation-lock.js';

interface Lease {
  lock: HeldLock;
  /** Watches the lock's directory for a waiter's "want" marker (none where watching failed). */
  watcher: FSWatcher | undefined;
  /** Another process asked for the lock: give it up as soon as no run is using it. */
  wanted: boolean;
  /** A run used the lease since its last tick: the next tick renews it rather than gives it up. */
  used: boolean;
  /** The tick came during a run: the run's end renews the lease (a run that never ends lets it lapse). */
  renewDue: boolean;
  /** Renews the lease in use, or gives up the one not used, well before it could look stale to others. */
  tick: NodeJS.Timeout;
}

const liveLeases = new Set<LockLeases>();
// A process that exits without close() still leaves no lock behind.
process.once('exit', () => {
  for (const leases of liveLeases) leases.releaseAll();
});

/**
 * Keeps a conversation's lock file between appends of one store instance, so that appends pay for
 * no lock syscalls on the event loop while no other process wants the conversation. A lease ends
 * when another process leaves its "want" marker beside the lock (noticed through a watch on the
 * lock's directory, also while this process is idle), when the store closes, and when it goes a
 * quarter of `staleMs` unused. A lease in use is stamped afresh every quarter of `staleMs`, off the
 * event loop (`HeldLock.renew`), so others never judge it stale; one whose stamp is older than a
 * third of `staleMs` (a renewal failed or late) is taken again before use. Where a directory cannot
 * be watched, the lease ends as soon as the event loop goes idle, and before this instance waits for
 * another lock (two processes each idly holding what the other waits for would both time out).
 */
export class LockLeases {
  readonly #leases = new Map<string, Lease>();
  // The leases without a watch (few or none): each acquire looks at these, not at every lease held.
  readonly #unwatched = new Set<string>();
  #releaseTimer: NodeJS.Timeout | undefined;
  // Runs in progress per lock: a lease is never given up from under one.
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
      if (
        lease !== undefined &&
        (lease.wanted || this.#expired(lease) || this.#wantedUnwatched(path, lease))
      ) {
        this.release(path);
        lease = undefined;
      }
      const continued = lease !== undefined;
      if (lease === undefined) {
        this.#releaseUnwatched();
        lease = this.#lease(path, await acquireLock(path, this.options));
      }
      lease.used = true;
      return await work(continued);
    } finally {
      const active = (this.#active.get(path) ?? 1) - 1;
      if (active === 0) this.#active.delete(path);
      else this.#active.set(path, active);
      const lease = this.#leases.get(path);
      if (active === 0 && lease !== undefined) {
        // The waiter is served after the run in progress, however fast this instance appends.
        if (lease.wanted || this.#expired(lease)) this.release(path);
        else {
          if (lease.renewDue) this.#renew(path, lease);
          if (lease.watcher === undefined) this.#releaseWhenIdle();
        }
      }
    }
  }

  #lease(path: string, lock: HeldLock): Lease {
    const tick = setTimeout(() => this.#tick(path), this.options.staleMs / 4);
    tick.unref();
    const lease: Lease = { lock, watcher: undefined, wanted: false, used: false, renewDue: false, tick };
    this.#leases.set(path, lease);
    liveLeases.add(this);
    const want = basename(wantFile(path));
    try {
      lease.watcher = watch(dirname(path), { persistent: false }, (_event, name) => {
        if (name !== want || this.#leases.get(path) !== lease) return;
        lease.wanted = true;
        if (!this.#active.has(path)) this.release(path);
      });
      lease.watcher.on('error', () => {
        // The directory went away (a delete) or the watch broke: fall back to releasing at idle.
        lease.watcher?.close();
        lease.watcher = undefined;
        if (this.#leases.get(path) === lease) this.#unwatched.add(path);
        if (!this.#active.has(path)) this.#releaseWhenIdle();
      });
    } catch {
      // Out of watches (or none on this platform): the lease ends at idle instead.
      this.#unwatched.add(path);
    }
    // A waiter that asked before the watch began: its marker is already there.
    if (existsSync(wantFile(path))) lease.wanted = true;
    return lease;
  }

  #tick(path: string): void {
    const lease = this.#leases.get(path);
    if (lease === undefined) return;
    // Renewed only by a process that gets things done: a run stuck past staleMs lets the lock go stale,
    // for others to take over, as a hung owner's should.
    if (this.#active.has(path)) lease.renewDue = true;
    else if (lease.used) this.#renew(path, lease);
    else this.release(path);
  }

  #renew(path: string, lease: Lease): void {
    // Too old to be beyond doubt ours (the process was paused, say): another process may have taken
    // the lock over, and a new link renamed over it would take it back. Let it go (if still ours).
    if (!this.isFresh(path)) {
      this.release(path);
      return;
    }
    lease.used = false;
    lease.renewDue = false;
    // A failed renewal is tried again at the next tick; meanwhile the stamp's age decides (#expired).
    const next = () => {
      if (this.#leases.get(path) === lease) lease.tick.refresh();
    };
    lease.lock.renew().then(next, next);
  }

  #expired(lease: Lease): boolean {
    return Date.now() - lease.lock.acquiredAt > this.options.staleMs / 3;
  }

  #wantedUnwatched(path: string, lease: Lease): boolean {
    return lease.watcher === undefined && existsSync(wantFile(path));
  }

  /**
   * Whether the lock at `path` is still this instance's beyond doubt: held, and young enough that
   * no other process can have judged it stale and taken it over. A write that trusts cached state
   * asks this first: a run slowed past `staleMs` (a big blob, a paused process) must not write.
   */
  isFresh(path: string): boolean {
    const lease = this.#leases.get(path);
    return lease !== undefined && Date.now() - lease.lock.acquiredAt < this.options.staleMs / 2;
  }

  /**
   * The lease on `path` while it is fresh, as a token: the same object for as long as the lock has
   * been held without a break (no other process can have written meanwhile), a new one after.
   */
  holding(path: string): object | undefined {
    return this.isFresh(path) ? this.#leases.get(path) : undefined;
  }

  #releaseWhenIdle(): void {
    if (this.#releaseTimer !== undefined) return;
    this.#releaseTimer = setTimeout(() => {
      this.#releaseTimer = undefined;
      this.#releaseUnwatched();
    }, 0);
    this.#releaseTimer.unref();
  }

  /** Gives back every lease without a watch that no run is using. */
  #releaseUnwatched(): void {
    for (const path of [...this.#unwatched]) {
      if (!this.#active.has(path)) this.release(path);
    }
  }

  /** Gives the lock at `path` back (a waiter's marker is cleared first, so it is not honoured twice). */
  release(path: string): void {
    const lease = this.#forget(path);
    if (lease === undefined) return;
    try {
      unlinkSync(wantFile(path));
    } catch {
      // No one was waiting.
    }
    lease.lock.release();
  }

  /** Forgets a lease whose lock file went away with its directory (a deleted conversation). */
  forget(path: string): void {
    this.#forget(path);
  }

  #forget(path: string): Lease | undefined {
    const lease = this.#leases.get(path);
    if (lease === undefined) return undefined;
    this.#leases.delete(path);
    this.#unwatched.delete(path);
    lease.watcher?.close();
    clearTimeout(lease.tick);
    if (this.#leases.size === 0) liveLeases.delete(this);
    return lease;
  }

  /** How many leases are held (for tests and diagnostics). */
  get size(): number {
    return this.#leases.size;
  }

  releaseAll(): void {
    for (const path of [...this.#leases.keys()]) this.release(path);
    liveLeases.delete(this);
  }
}
