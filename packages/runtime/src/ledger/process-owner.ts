import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * Names this process in the records it claims (tool intents, leases): host and pid for people
 * reading the log, a random part so that a restarted process with the same pid is someone else.
 */
export function createProcessOwner(): string {
  return `${hostname().replace(/[^A-Za-z0-9._-]/g, '_')}.${process.pid}.${randomUUID().slice(0, 8)}`;
}
