import type { AcquireLeaseOptions, Lease, LeaseHolder, LeaseStore } from '@cairn/core';
import {
  acquiredEpoch,
  assertLeaseKey,
  heldLease,
  isRenewable,
  type LeaseRow,
  normalizeLeaseRequest,
  RELEASED_LEASE_OWNER,
} from '@cairn/storage';
import type { SqliteConnection, SqliteStatement as Statement } from './sqlite-connection.js';

interface LeaseStatements {
  find: Statement<[string], LeaseRow>;
  upsert: Statement<[string, string, number, number]>;
}

/** What the store lends its leases: its connection, and its way to run a call (closed check, errors). */
export interface SqliteLeaseContext {
  db: SqliteConnection;
  run<T>(action: string, work: () => T): T;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Leases in the `cairn_leases` table. Every change reads the row and decides (`acquiredEpoch`,
 * `isRenewable`) inside one `BEGIN IMMEDIATE` transaction: the write lock is taken first, so of
 * racing processes exactly one sees the key free. Expiry is by this process's clock: processes
 * sharing one file share a machine.
 */
export class SqliteLeaseStore implements LeaseStore {
  readonly #context: SqliteLeaseContext;
  readonly #find: LeaseStatements['find'];
  readonly #acquire: (key: string, owner: string, ttlMs: number) => LeaseRow | undefined;
  readonly #renew: (key: string, owner: string, epoch: number, ttlMs: number) => number | undefined;
  readonly #release: (key: string, owner: string, epoch: number) => void;

  constructor(context: SqliteLeaseContext) {
    const { db } = context;
    this.#context = context;
    const statements: LeaseStatements = {
      find: db.prepare<[string], LeaseRow>(
        'SELECT owner, epoch, expires_at_ms AS expiresAtMs FROM cairn_leases WHERE key = ?',
      ),
      upsert: db.prepare<[string, string, number, number]>(
        `INSERT INTO cairn_leases (key, owner, epoch, expires_at_ms) VALUES (?, ?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, epoch = excluded.epoch,
           expires_at_ms = excluded.expires_at_ms`,
      ),
    };
    this.#find = statements.find;
    this.#acquire = db.immediate((key: string, owner: string, ttlMs: number) => {
      const now = Date.now();
      const epoch = acquiredEpoch(statements.find.get(key), owner, now);
      if (epoch === undefined) return undefined;
      const row = { owner, epoch, expiresAtMs: now + ttlMs };
      statements.upsert.run(key, owner, epoch, row.expiresAtMs);
      return row;
    });
    this.#renew = db.immediate((key: string, owner: string, epoch: number, ttlMs: number) => {
      const now = Date.now();
      if (!isRenewable(statements.find.get(key), owner, epoch, now)) return undefined;
      statements.upsert.run(key, owner, epoch, now + ttlMs);
      return now + ttlMs;
    });
    // Kept, not deleted: the next owner's epoch counts on from this one.
    this.#release = db.immediate((key: string, owner: string, epoch: number) => {
      const row = statements.find.get(key);
      if (row?.owner === owner && row.epoch === epoch)
        statements.upsert.run(key, RELEASED_LEASE_OWNER, epoch, 0);
    });
  }

  async acquire(key: string, options: AcquireLeaseOptions): Promise<Lease | undefined> {
    const { owner, ttlMs } = normalizeLeaseRequest(key, options);
    const { run } = this.#context;
    const row = run('acquire lease', () => this.#acquire(key, owner, ttlMs));
    if (row === undefined) return undefined;
    const { epoch } = row;
    return heldLease(
      { key, owner, epoch, expiresAt: iso(row.expiresAtMs) },
      {
        renew: async () => {
          const expiresAtMs = run('renew lease', () => this.#renew(key, owner, epoch, ttlMs));
          return expiresAtMs === undefined ? undefined : iso(expiresAtMs);
        },
        release: async () => run('release lease', () => this.#release(key, owner, epoch)),
      },
    );
  }

  async read(key: string): Promise<LeaseHolder | undefined> {
    assertLeaseKey(key);
    const row = this.#context.run('read lease', () => this.#find.get(key));
    if (row === undefined || row.owner === RELEASED_LEASE_OWNER) return undefined;
    return { owner: row.owner, epoch: row.epoch, expiresAt: iso(row.expiresAtMs) };
  }
}
