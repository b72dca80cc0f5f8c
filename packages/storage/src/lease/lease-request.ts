import { type AcquireLeaseOptions, assertSafeId, CairnError } from '@cairn/core';

/** The shortest ttl a lease takes (`AcquireLeaseOptions.ttlMs`). */
export const MIN_LEASE_TTL_MS = 100;
/** The longest: what a Node timer can wait, so a holder can always schedule its renewal. */
export const MAX_LEASE_TTL_MS = 2 ** 31 - 1;
/** Owners are kept in every holder record (for the fs store, a symlink's target): bounded. */
export const MAX_LEASE_OWNER_LENGTH = 256;

// Control characters and lone surrogates: PostgreSQL text refuses NUL, and a lone surrogate has no
// UTF-8 form (a file name, a URI component), so an owner with one would not round-trip everywhere.
const LONE_SURROGATE = /\p{Cs}/u;

function isStorableOwner(owner: string): boolean {
  for (let index = 0; index < owner.length; index++) {
    const code = owner.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return false;
  }
  return !LONE_SURROGATE.test(owner);
}

/** An acquire's arguments, checked. */
export interface LeaseRequest {
  key: string;
  owner: string;
  ttlMs: number;
}

/** Throws `INVALID_ID` unless `key` is a safe id: keys become file names and query parameters. */
export function assertLeaseKey(key: unknown): asserts key is string {
  assertSafeId('lease key', key);
}

/**
 * Checks `LeaseStore.acquire`'s arguments the same way for every store, before anything is read:
 * `INVALID_ID` for an unsafe key, `INVALID_ARGUMENT` for an empty, overlong or unstorable owner or a
 * ttl that is not a whole number of milliseconds in [`MIN_LEASE_TTL_MS`, `MAX_LEASE_TTL_MS`].
 */
export function normalizeLeaseRequest(key: unknown, options: AcquireLeaseOptions): LeaseRequest {
  assertLeaseKey(key);
  // Checked as unknown: JavaScript callers and JSON configs reach here too.
  const { owner, ttlMs } = (options ?? {}) as Partial<Record<keyof AcquireLeaseOptions, unknown>>;
  if (
    typeof owner !== 'string' ||
    owner === '' ||
    owner.length > MAX_LEASE_OWNER_LENGTH ||
    !isStorableOwner(owner)
  ) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `A lease owner is 1-${MAX_LEASE_OWNER_LENGTH} characters without control characters or lone surrogates`,
      { details: { key } },
    );
  }
  if (
    typeof ttlMs !== 'number' ||
    !Number.isInteger(ttlMs) ||
    ttlMs < MIN_LEASE_TTL_MS ||
    ttlMs > MAX_LEASE_TTL_MS
  ) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `A lease ttlMs is a whole number from ${MIN_LEASE_TTL_MS} to ${MAX_LEASE_TTL_MS}, got ${String(ttlMs)}`,
      { details: { key } },
    );
  }
  return { key, owner, ttlMs };
}
