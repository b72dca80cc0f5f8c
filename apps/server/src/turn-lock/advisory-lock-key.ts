import { createHash } from 'node:crypto';

/**
 * The PostgreSQL advisory lock key of a conversation: the first 8 bytes of sha256(`cairn:<id>`) read as a
 * signed big-endian 64-bit integer, as a decimal string (for a `$1::bigint` parameter). Stable across
 * processes and versions; the `cairn:` prefix keeps clear of keys other applications hash from bare ids.
 */
export function advisoryLockKey(conversationId: string): string {
  return createHash('sha256').update(`cairn:${conversationId}`).digest().readBigInt64BE(0).toString();
}
