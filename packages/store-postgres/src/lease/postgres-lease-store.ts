import type { AcquireLeaseOptions, Lease, LeaseHolder, LeaseStore } from '@cairn/core';
import { assertLeaseKey, heldLease, normalizeLeaseRequest } from '@cairn/storage';
import type { QueryResultRow } from 'pg';
import type { SchemaTables } from '../schema/schema-tables.js';
import { isoTimestamp } from '../sql/iso-timestamp.js';

/** Runs one statement for `action` once the schema is ready (the store's closed check and errors). */
export type LeaseQuery = <R extends QueryResultRow>(
  action: string,
  text: string,
  values: unknown[],
) => Promise<R[]>;

// bigint comes back from pg as a string.
interface EpochRow {
  epoch: string;
  expires_at: string;
}

const ttl = (parameter: string) => `now() + ${parameter}::integer * interval '1 millisecond'`;

/**
 * Leases in the `cairn_leases` table, each call one statement judged by the database's clock
 * (`now()`), so the hosts sharing the database need not agree on the time. An acquire is one
 * `INSERT … ON CONFLICT DO UPDATE … WHERE` the row lapsed or is the caller's: of racing acquirers,
 * the others wait for the first one's row and then find it held. A released row keeps its epoch
 * (owner emptied, expiry -infinity).
 */
export class PostgresLeaseStore implements LeaseStore {
  readonly #table: string;
  readonly #query: LeaseQuery;

  constructor(tables: SchemaTables, query: LeaseQuery) {
    this.#table = tables.leases;
    this.#query = query;
  }

  async acquire(key: string, options: AcquireLeaseOptions): Promise<Lease | undefined> {
    const { owner, ttlMs } = normalizeLeaseRequest(key, options);
    const [row] = await this.#query<EpochRow>(
      'acquire lease',
      `INSERT INTO ${this.#table} AS lease (key, owner, epoch, expires_at) VALUES ($1, $2, 1, ${ttl('$3')})
       ON CONFLICT (key) DO UPDATE SET
         owner = excluded.owner,
         epoch = CASE WHEN lease.owner = excluded.owner THEN lease.epoch ELSE lease.epoch + 1 END,
         expires_at = excluded.expires_at
       WHERE lease.expires_at < now() OR lease.owner = excluded.owner
       RETURNING epoch::text, ${isoTimestamp('lease.expires_at')} AS expires_at`,
      [key, owner, ttlMs],
    );
    if (row === undefined) return undefined;
    const epoch = Number(row.epoch);
    return heldLease(
      { key, owner, epoch, expiresAt: row.expires_at },
      {
        // A lapsed lease is not renewed even if no one took it (see `isRenewable` in @cairn/storage).
        renew: async () => {
          const [renewed] = await this.#query<{ expires_at: string }>(
            'renew lease',
            `UPDATE ${this.#table} AS lease SET expires_at = ${ttl('$4')}
             WHERE key = $1 AND owner = $2 AND epoch = $3 AND expires_at >= now()
             RETURNING ${isoTimestamp('lease.expires_at')} AS expires_at`,
            [key, owner, epoch, ttlMs],
          );
          return renewed?.expires_at;
        },
        release: async () => {
          await this.#query(
            'release lease',
            `UPDATE ${this.#table} SET owner = '', expires_at = '-infinity'
             WHERE key = $1 AND owner = $2 AND epoch = $3`,
            [key, owner, epoch],
          );
        },
      },
    );
  }

  async read(key: string): Promise<LeaseHolder | undefined> {
    assertLeaseKey(key);
    const [row] = await this.#query<EpochRow & { owner: string }>(
      'read lease',
      `SELECT owner, epoch::text, ${isoTimestamp('expires_at')} AS expires_at
       FROM ${this.#table} WHERE key = $1 AND owner <> ''`,
      [key],
    );
    return row === undefined
      ? undefined
      : { owner: row.owner, epoch: Number(row.epoch), expiresAt: row.expires_at };
  }
}
