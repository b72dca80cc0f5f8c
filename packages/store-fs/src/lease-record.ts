import { isOwnerGone, newOwner, type Owner, parseOwner, readRawOwner } from './conversation-lock.js';

/**
 * A lease's holder record, the target of its `holder` lock: the lock's owner stamp
 * (`host pid stampedAtMs token`, so the lock machinery reads it as any lock's) followed by
 * `ttlMs epoch owner`, the owner URI-encoded (it may hold spaces).
 */
export interface LeaseRecord extends Owner {
  // `acquiredAt`: when the record was written; the lease lasts `ttlMs` from then (the writer's clock).
  ttlMs: number;
  epoch: number;
  owner: string;
}

/** A new record for `owner`, stamped now by this process. */
export function leaseRecord(owner: string, ttlMs: number, epoch: number): string {
  return `${newOwner()} ${ttlMs} ${epoch} ${encodeURIComponent(owner)}`;
}

export function parseLeaseRecord(raw: string): LeaseRecord | undefined {
  const stamp = parseOwner(raw);
  const [, , , , ttl, epoch, owner] = raw.split(' ');
  const ttlMs = Number(ttl);
  const number = Number(epoch);
  if (stamp === undefined || owner === undefined || !Number.isFinite(stamp.acquiredAt)) return undefined;
  if (!Number.isSafeInteger(ttlMs) || !Number.isSafeInteger(number)) return undefined;
  try {
    return { ...stamp, ttlMs, epoch: number, owner: decodeURIComponent(owner) };
  } catch {
    // Not an encoding this store wrote: no lease of ours.
    return undefined;
  }
}

/** The record of the lease at `path`, undefined when free. */
export function readLeaseRecord(path: string): LeaseRecord | undefined {
  const raw = readRawOwner(path);
  return raw === undefined ? undefined : parseLeaseRecord(raw);
}

export function leaseExpiresAt(record: LeaseRecord): number {
  return record.acquiredAt + record.ttlMs;
}

/**
 * Past its expiry, or held by a process of this machine that is gone: a killed holder's lease
 * lapses at once here, where the other stores wait for its ttl.
 */
export function isLeaseLapsed(record: LeaseRecord, nowMs: number): boolean {
  return leaseExpiresAt(record) < nowMs || isOwnerGone(record);
}
