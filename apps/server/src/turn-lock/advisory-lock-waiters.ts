import { CairnError } from '@cairn/core';
import pg from 'pg';
import { turnAbortedError } from './turn-aborted-error.js';

/** The waiting connection's `application_name`, to find it in `pg_stat_activity`. */
export const LOCK_WAIT_APPLICATION_NAME = 'cairn-turn-lock-wait';

/**
 * Which of the given keys no session of this database holds as a session advisory lock. A bigint key
 * shows in `pg_locks` as its high 32 bits in `classid`, its low 32 bits in `objid`, and `objsubid` 1.
 * Reading `pg_locks` takes no lock, so watching a key never gets in the way of whoever takes it next.
 */
const FREE_KEYS_SQL = `
SELECT k::text AS key
FROM unnest($1::bigint[]) AS k
WHERE NOT EXISTS (
  SELECT 1 FROM pg_locks AS l
  WHERE l.locktype = 'advisory'
    AND l.granted
    AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
    AND l.objsubid = 1
    AND l.classid::bigint = ((k >> 32) & 4294967295)
    AND l.objid::bigint = (k & 4294967295)
)`;

type Waker = (error?: unknown) => void;

export interface AdvisoryLockWaitersOptions {
  connectionString: string;
  pollIntervalMs: number;
}

/**
 * Where turns wait for a conversation another instance holds, without holding a connection of the lock
 * pool: one shared connection checks every `pollIntervalMs` which of the awaited keys are free (one query
 * for all of them), and wakes their waiters, who then try to take the lock on a pooled connection (and
 * come back here if another instance was faster). So however many turns wait for busy conversations,
 * the pool stays free for the conversations nobody holds.
 *
 * If the check fails, every waiter is woken: its own attempt through the pool then either works or
 * reports the outage. The connection is opened on first use and again after it fails.
 */
export class AdvisoryLockWaiters {
  private readonly waiting = new Map<string, Set<Waker>>();
  private connection: { client: pg.Client; connected: Promise<pg.Client> } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private closed = false;

  constructor(private readonly options: AdvisoryLockWaitersOptions) {}

  /**
   * Resolves once `key` looked free: another instance may still take it first, so try it and come back
   * if it did. Rejects with `LLM_ABORTED` when `signal` aborts.
   */
  waitUntilFree(key: string, conversationId: string, signal: AbortSignal | undefined): Promise<void> {
    if (this.closed) return Promise.reject(closedError());
    if (signal?.aborted) return Promise.reject(turnAbortedError(conversationId, signal.reason));
    return new Promise<void>((resolve, reject) => {
      let wakers = this.waiting.get(key);
      if (wakers === undefined) {
        wakers = new Set();
        this.waiting.set(key, wakers);
      }
      const own = wakers;
      const waker: Waker = (error) => {
        own.delete(waker);
        if (own.size === 0 && this.waiting.get(key) === own) this.waiting.delete(key);
        signal?.removeEventListener('abort', onAbort);
        if (error === undefined) resolve();
        else reject(error);
      };
      const onAbort = () => waker(turnAbortedError(conversationId, signal?.reason));
      signal?.addEventListener('abort', onAbort, { once: true });
      own.add(waker);
      this.schedule();
    });
  }

  /** Resolves when the database answers on the waiting connection; rejects with `STORE_UNAVAILABLE`. */
  async check(): Promise<void> {
    if (this.closed) throw closedError();
    try {
      await (await this.client()).query('SELECT 1');
    } catch (error) {
      this.dropClient();
      throw new CairnError('STORE_UNAVAILABLE', 'the turn lock database is unavailable', { cause: error });
    }
  }

  /** Waiters in this instance (for tests and metrics). */
  get size(): number {
    let count = 0;
    for (const wakers of this.waiting.values()) count += wakers.size;
    return count;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    const error = closedError();
    for (const wakers of [...this.waiting.values()]) for (const wake of [...wakers]) wake(error);
    const connection = this.connection;
    this.connection = undefined;
    await connection?.client.end().catch(() => {});
  }

  private schedule() {
    if (this.timer !== undefined || this.polling || this.closed || this.waiting.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.poll();
    }, this.options.pollIntervalMs);
    this.timer.unref();
  }

  private async poll() {
    this.polling = true;
    const keys = [...this.waiting.keys()];
    let free: string[];
    try {
      const { rows } = await (await this.client()).query<{ key: string }>(FREE_KEYS_SQL, [keys]);
      free = rows.map((row) => row.key);
    } catch {
      this.dropClient();
      free = keys;
    }
    this.polling = false;
    for (const key of free) for (const wake of [...(this.waiting.get(key) ?? [])]) wake();
    this.schedule();
  }

  private client(): Promise<pg.Client> {
    if (this.connection === undefined) {
      const client = new pg.Client({
        connectionString: this.options.connectionString,
        application_name: LOCK_WAIT_APPLICATION_NAME,
        keepAlive: true,
        connectionTimeoutMillis: 10_000,
        // A half-open connection must fail the check (and be replaced), not hang every waiter.
        query_timeout: 10_000,
      });
      // Without a listener, the connection dropping would be an uncaught exception.
      client.on('error', () => this.dropClient(client));
      const connected = client.connect().then(() => client);
      connected.catch(() => this.dropClient(client));
      this.connection = { client, connected };
    }
    return this.connection.connected;
  }

  private dropClient(client = this.connection?.client) {
    if (client === undefined || this.connection?.client !== client) return;
    this.connection = undefined;
    void client.end().catch(() => {});
  }
}

const closedError = () => new CairnError('STORE_UNAVAILABLE', 'the turn lock is closed');
