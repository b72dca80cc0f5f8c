import { readFile } from 'node:fs/promises';
import { setTimeout as pause } from 'node:timers/promises';
import type { AcquireLeaseOptions, Lease, LeaseHolder, LeaseStore } from '@cairn/core';
import { assertLeaseKey, heldLease, normalizeLeaseRequest } from '@cairn/storage';
import {
  BREAKER_STALE_MS,
  breakerFile,
  isStale,
  newOwner,
  readOwner,
  removeIfOwnedBy,
  replaceOwner,
  tryAcquireLock,
  tryCreate,
} from './conversation-lock.js';
import type { FsLayout } from './fs-layout.js';
import {
  isLeaseLapsed,
  type LeaseRecord,
  leaseExpiresAt,
  leaseRecord,
  parseLeaseRecord,
  readLeaseRecord,
} from './lease-record.js';
import { isMissing } from './missing-files.js';
import { writeFileAtomic } from './write-file-atomic.js';

// Tries of one acquire while others take and break the key around it; then it counts as held.
const ACQUIRE_TRIES = 8;
// How long an acquire or a release waits for the breaker lock, which is held for milliseconds.
const GUARD_WAIT_MS = 5_000;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Runs `work` holding the holder's breaker lock, which a process breaking a lapsed holder takes
 * too: no one removes or replaces the holder record meanwhile, so a renew cannot put back a
 * record another process has just broken and replaced. Undefined when the breaker lock was not had
 * by `deadline` (a breaker at work: the lease is taken to be lapsing).
 */
async function underBreakerLock<T>(
  holder: string,
  deadline: number,
  work: () => Promise<T>,
): Promise<T | undefined> {
  const breaker = breakerFile(holder);
  const me = newOwner();
  while (!(await tryCreate(breaker, me))) {
    const other = readOwner(breaker);
    if (other !== undefined && isStale(other, BREAKER_STALE_MS)) removeIfOwnedBy(breaker, other.raw);
    else if (Date.now() > deadline) return undefined;
    else await pause(1 + Math.random() * 4);
  }
  try {
    return await work();
  } finally {
    removeIfOwnedBy(breaker, me);
  }
}

/**
 * Leases in the fs store, each a lock file of the conversation-lock machinery (`leases/<key>/holder`,
 * a symlink naming host, pid, stamp, ttl, epoch and owner): taken by creating it, renewed by
 * replacing its record, lapsed by its ttl or at once when its holder process on this host is gone,
 * broken through the `.break` protocol. The epoch counter (`leases/<key>/epoch`) is written by the
 * holder and survives releases.
 */
export class FsLeaseStore implements LeaseStore {
  readonly #layout: FsLayout;
  readonly #sync: boolean;
  readonly #assertOpen: () => void;

  /** `sync`: fsync the epoch counter (durability other than `none`). */
  constructor(layout: FsLayout, options: { sync: boolean; assertOpen: () => void }) {
    this.#layout = layout;
    this.#sync = options.sync;
    this.#assertOpen = options.assertOpen;
  }

  async acquire(key: string, options: AcquireLeaseOptions): Promise<Lease | undefined> {
    this.#assertOpen();
    const { owner, ttlMs } = normalizeLeaseRequest(key, options);
    const holder = this.#layout.leaseHolderFile(key);
    for (let attempt = 0; attempt < ACQUIRE_TRIES; attempt++) {
      const current = readLeaseRecord(holder);
      if (current !== undefined && current.owner !== owner && !isLeaseLapsed(current, Date.now())) {
        return undefined;
      }
      const record =
        current?.owner === owner
          ? await this.#restamp(holder, current, ttlMs, {
              lapsed: true,
              deadline: Date.now() + GUARD_WAIT_MS,
            })
          : await this.#take(key, holder, owner, ttlMs);
      if (record !== undefined) return this.#lease(key, holder, record);
      // Another process took or broke it meanwhile: look again.
      await pause(Math.random() * 2 * attempt);
    }
    return undefined;
  }

  async read(key: string): Promise<LeaseHolder | undefined> {
    this.#assertOpen();
    assertLeaseKey(key);
    const record = readLeaseRecord(this.#layout.leaseHolderFile(key));
    if (record === undefined) return undefined;
    return { owner: record.owner, epoch: record.epoch, expiresAt: iso(leaseExpiresAt(record)) };
  }

  // Creates the holder (breaking a lapsed one), then counts the epoch under it. The record is made
  // with the epoch the counter promises; when another owner came and went in between, it is
  // corrected before the lease is handed out.
  async #take(key: string, holder: string, owner: string, ttlMs: number): Promise<LeaseRecord | undefined> {
    const epochFile = this.#layout.leaseEpochFile(key);
    const expected = (await readEpoch(epochFile)) + 1;
    let raw = leaseRecord(owner, ttlMs, expected);
    const lapsed = (stamp: { raw: string }) => {
      const record = parseLeaseRecord(stamp.raw);
      return record === undefined || isLeaseLapsed(record, Date.now());
    };
    if (!(await tryAcquireLock(holder, raw, lapsed))) return undefined;
    let epoch: number;
    try {
      epoch = (await readEpoch(epochFile)) + 1;
      if (epoch !== expected) {
        const mine = parseLeaseRecord(raw) as LeaseRecord;
        const corrected = leaseRecord(owner, ttlMs, epoch);
        const replaced = await underBreakerLock(holder, leaseExpiresAt(mine), async () => {
          if (readLeaseRecord(holder)?.raw !== raw) return false;
          await replaceOwner(holder, corrected);
          return true;
        });
        if (replaced !== true) return undefined;
        raw = corrected;
      }
      await writeFileAtomic(epochFile, String(epoch), this.#sync);
    } catch (error) {
      removeIfOwnedBy(holder, raw);
      throw error;
    }
    // Still ours once the counter is written: a holder that stalled past its ttl meanwhile, and was
    // taken over, does not hand out an epoch its successor may also have counted.
    const record = readLeaseRecord(holder);
    return record?.owner === owner && record.epoch === epoch ? record : undefined;
  }

  // A new stamp for the holder's record, same epoch, if it is still `current`'s owner and epoch.
  #restamp(
    holder: string,
    current: Pick<LeaseRecord, 'owner' | 'epoch'>,
    ttlMs: number,
    { lapsed, deadline }: { lapsed: boolean; deadline: number },
  ): Promise<LeaseRecord | undefined> {
    return underBreakerLock(holder, deadline, async () => {
      const now = readLeaseRecord(holder);
      if (now?.owner !== current.owner || now.epoch !== current.epoch) return undefined;
      if (!lapsed && isLeaseLapsed(now, Date.now())) return undefined;
      const raw = leaseRecord(current.owner, ttlMs, current.epoch);
      await replaceOwner(holder, raw);
      return parseLeaseRecord(raw);
    });
  }

  #lease(key: string, holder: string, record: LeaseRecord): Lease {
    const { owner, epoch, ttlMs } = record;
    let expiresAt = leaseExpiresAt(record);
    return heldLease(
      { key, owner, epoch, expiresAt: iso(expiresAt) },
      {
        renew: async () => {
          this.#assertOpen();
          // Past its expiry the breaker lock is not waited for: the lease is lapsing.
          const renewed = await this.#restamp(holder, record, ttlMs, { lapsed: false, deadline: expiresAt });
          if (renewed === undefined) return undefined;
          expiresAt = leaseExpiresAt(renewed);
          return iso(expiresAt);
        },
        release: async () => {
          this.#assertOpen();
          await underBreakerLock(holder, Date.now() + GUARD_WAIT_MS, async () => {
            const now = readLeaseRecord(holder);
            if (now?.owner === owner && now.epoch === epoch) removeIfOwnedBy(holder, now.raw);
          });
        },
      },
    );
  }
}

async function readEpoch(path: string): Promise<number> {
  try {
    const epoch = Number(await readFile(path, 'utf8'));
    return Number.isSafeInteger(epoch) && epoch > 0 ? epoch : 0;
  } catch (error) {
    if (isMissing(error)) return 0;
    throw error;
  }
}
