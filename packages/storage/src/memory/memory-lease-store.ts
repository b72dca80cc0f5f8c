import type { AcquireLeaseOptions, Lease, LeaseHolder, LeaseStore } from '@cairn/core';
import { heldLease } from '../lease/held-lease.js';
import { assertLeaseKey, normalizeLeaseRequest } from '../lease/lease-request.js';
import { acquiredEpoch, isRenewable, type LeaseRow, RELEASED_LEASE_OWNER } from '../lease/lease-rules.js';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Leases in a Map, expiring by `Date.now()`: for one process (the memory store is not shared), so
 * its leases only serve code that is written for the shared stores. Each call decides in one
 * synchronous step, so racing acquirers cannot both win.
 */
export class MemoryLeaseStore implements LeaseStore {
  readonly #rows = new Map<string, LeaseRow>();
  readonly #assertOpen: () => void;

  /** `assertOpen` throws once the store that owns these leases is closed. */
  constructor(assertOpen: () => void = () => undefined) {
    this.#assertOpen = assertOpen;
  }

  async acquire(key: string, options: AcquireLeaseOptions): Promise<Lease | undefined> {
    this.#assertOpen();
    const { owner, ttlMs } = normalizeLeaseRequest(key, options);
    const now = Date.now();
    const epoch = acquiredEpoch(this.#rows.get(key), owner, now);
    if (epoch === undefined) return undefined;
    const row: LeaseRow = { owner, epoch, expiresAtMs: now + ttlMs };
    this.#rows.set(key, row);
    return heldLease(
      { key, owner, epoch, expiresAt: iso(row.expiresAtMs) },
      {
        renew: async () => {
          this.#assertOpen();
          const current = this.#rows.get(key);
          const at = Date.now();
          if (current === undefined || !isRenewable(current, owner, epoch, at)) return undefined;
          current.expiresAtMs = at + ttlMs;
          return iso(current.expiresAtMs);
        },
        release: async () => {
          this.#assertOpen();
          const current = this.#rows.get(key);
          if (current?.owner !== owner || current.epoch !== epoch) return;
          // Kept, not deleted: the next owner's epoch counts on from this one.
          current.owner = RELEASED_LEASE_OWNER;
          current.expiresAtMs = 0;
        },
      },
    );
  }

  async read(key: string): Promise<LeaseHolder | undefined> {
    this.#assertOpen();
    assertLeaseKey(key);
    const row = this.#rows.get(key);
    if (row === undefined || row.owner === RELEASED_LEASE_OWNER) return undefined;
    return { owner: row.owner, epoch: row.epoch, expiresAt: iso(row.expiresAtMs) };
  }
}
