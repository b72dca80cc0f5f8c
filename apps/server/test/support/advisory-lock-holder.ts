import type pg from 'pg';
import { advisoryLockKey } from '../../src/turn-lock/advisory-lock-key.js';

/**
 * The backend holding the conversation's turn lock, if any. A bigint advisory key shows in `pg_locks` as
 * its high 32 bits in `classid`, its low 32 bits in `objid`, and `objsubid` 1.
 */
export async function advisoryLockHolder(
  admin: pg.Client | pg.Pool,
  conversationId: string,
): Promise<number | undefined> {
  const { rows } = await admin.query<{ pid: number }>(
    `SELECT pid FROM pg_locks
     WHERE locktype = 'advisory' AND granted AND objsubid = 1
       AND classid::bigint = (($1::bigint >> 32) & 4294967295) AND objid::bigint = ($1::bigint & 4294967295)`,
    [advisoryLockKey(conversationId)],
  );
  return rows[0]?.pid;
}
