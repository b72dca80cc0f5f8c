/**
 * A key's lease as a store keeps it. A release does not forget the key: it sets the owner to
 * `RELEASED_LEASE_OWNER` (no owner is empty) and the expiry to the past, so the epoch counter goes on.
 */
export interface LeaseRow {
  owner: string;
  epoch: number;
  /** Milliseconds since 1970; the holder keeps the lease while the store's clock is not past it. */
  expiresAtMs: number;
}

/** The owner of a released key. */
export const RELEASED_LEASE_OWNER = '';

/**
 * The epoch `owner` takes the key with at `nowMs`, or undefined while another owner holds it. A lapsed
 * or released lease goes to anyone; the holder (also one whose lease lapsed and was not taken
 * over) keeps its epoch; any other owner gets the next one.
 */
export function acquiredEpoch(row: LeaseRow | undefined, owner: string, nowMs: number): number | undefined {
  if (row === undefined) return 1;
  if (row.owner === owner) return row.epoch;
  return row.expiresAtMs < nowMs ? row.epoch + 1 : undefined;
}

/**
 * Whether the lease `owner` got as `epoch` may be renewed at `nowMs`. Not once it lapsed, even if no
 * one took it over yet: from its expiry on, another process may already act on the key, so the
 * holder must stop; acquiring again is how it tries to get the key back.
 */
export function isRenewable(row: LeaseRow | undefined, owner: string, epoch: number, nowMs: number): boolean {
  return row !== undefined && row.owner === owner && row.epoch === epoch && row.expiresAtMs >= nowMs;
}
