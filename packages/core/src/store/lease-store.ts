/**
 * A lease: one owner at a time holds a key (a workflow run) until it releases it or stops renewing
 * it. Another owner takes it over only after it lapsed, which is how a run moves to a live process
 * when the one running it dies. The store's own clock decides expiry (the database's for
 * PostgreSQL), so host clocks need not agree.
 */
export interface Lease {
  readonly key: string;
  readonly owner: string;
  /**
   * Counts the owners the key has had: 1 for the first, +1 on every acquire by an owner that did not
   * hold it. Records written under a lease carry it, so a record from an older epoch is known stale.
   */
  readonly epoch: number;
  /** When the lease lapses unless renewed (ISO 8601). */
  readonly expiresAt: string;
  /**
   * Extends the lease by its ttl from now. False once it lapsed (even if no one took it over yet:
   * the owner may `acquire` again), was taken over or released: the holder must stop the work it
   * guards. A lease that said false once stays lost.
   */
  renew(): Promise<boolean>;
  /** Gives the lease up at once (a no-op when it was lost). */
  release(): Promise<void>;
}

/** Options of `LeaseStore.acquire`. */
export interface AcquireLeaseOptions {
  /** Who asks: unique per process (host, pid and a random token), never reused. */
  owner: string;
  /** How long the lease lasts without a renew, in milliseconds (at least 100). */
  ttlMs: number;
}

/** A holder of a key, as `LeaseStore.read` reports it. */
export interface LeaseHolder {
  owner: string;
  epoch: number;
  expiresAt: string;
}

/**
 * Leases kept in the store, beside the conversations, so every process that shares the store sees
 * them. Keys are safe ids (`assertSafeId`).
 */
export interface LeaseStore {
  /**
   * Takes the lease when no one holds it, its holder's lapsed, or `owner` already holds it (then it
   * is renewed, same epoch). Undefined when another owner holds it. Racing acquirers: exactly one
   * gets it. The fs store also takes over at once from a holder process on this host that is gone.
   */
  acquire(key: string, options: AcquireLeaseOptions): Promise<Lease | undefined>;
  /** The current holder (lapsed or not), or undefined when the key was never leased or released. */
  read(key: string): Promise<LeaseHolder | undefined>;
}
