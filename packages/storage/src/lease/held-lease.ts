import type { Lease } from '@cairn/core';

/** What a store does for one lease it handed out. */
export interface HeldLeaseOperations {
  /** Extends the lease; its new expiry (ISO 8601), or undefined when it is no longer this owner's. */
  renew(): Promise<string | undefined>;
  /** Gives it up if it is still this owner's (same owner and epoch). */
  release(): Promise<void>;
}

/**
 * A `Lease` over a store's operations. Its calls run one after another, and it is lost for good once
 * a renew returned false or it was released: a later renew is false without asking the store (to
 * hold the key again, acquire it again).
 */
class HeldLease implements Lease {
  readonly key: string;
  readonly owner: string;
  readonly epoch: number;
  #expiresAt: string;
  #lost = false;
  #last: Promise<unknown> = Promise.resolve();
  readonly #operations: HeldLeaseOperations;

  constructor(
    holder: { key: string; owner: string; epoch: number; expiresAt: string },
    operations: HeldLeaseOperations,
  ) {
    this.key = holder.key;
    this.owner = holder.owner;
    this.epoch = holder.epoch;
    this.#expiresAt = holder.expiresAt;
    this.#operations = operations;
  }

  get expiresAt(): string {
    return this.#expiresAt;
  }

  renew(): Promise<boolean> {
    return this.#serial(async () => {
      if (this.#lost) return false;
      const expiresAt = await this.#operations.renew();
      if (expiresAt === undefined) {
        this.#lost = true;
        return false;
      }
      this.#expiresAt = expiresAt;
      return true;
    });
  }

  release(): Promise<void> {
    return this.#serial(async () => {
      if (this.#lost) return;
      this.#lost = true;
      await this.#operations.release();
    });
  }

  // A release waits for a renew in flight, so the renew cannot bring the lease back after it.
  #serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#last.then(work, work);
    this.#last = run.catch(() => undefined);
    return run;
  }
}

/** The `Lease` a store returns from `acquire`. */
export function heldLease(
  holder: { key: string; owner: string; epoch: number; expiresAt: string },
  operations: HeldLeaseOperations,
): Lease {
  return new HeldLease(holder, operations);
}
