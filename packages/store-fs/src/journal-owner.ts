import { readFileSync } from 'node:fs';
import { HOST, isAlive } from './process-liveness.js';

// A journal file's name says whose it is: `<host>--<boot>--<pid>--<random>.wal`. The boot id tells
// a pid from before a restart (all dead) from a live process that was given the same number.
const SUFFIX = '.wal';
const SEPARATOR = '--';

function readBootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim().replaceAll('-', '').slice(0, 16);
  } catch {
    // Not Linux: the pid alone tells whether the owner runs.
    return 'unknown';
  }
}

const BOOT = readBootId();
// Only what can be in a file name, and never the separator.
const HOST_TAG = HOST.replace(/[^A-Za-z0-9.]/g, '_') || 'host';

/** The name of a new journal file of process `pid` (this one). */
export function journalFileName(random: string, pid = process.pid): string {
  return [HOST_TAG, BOOT, String(pid), random].join(SEPARATOR) + SUFFIX;
}

/**
 * Whether `name` is a journal file whose process is gone: of this machine, and from an earlier
 * boot or of a pid that no longer runs. Another machine's journals (a shared directory) are left to it.
 */
export function isOrphanedJournal(name: string): boolean {
  if (!name.endsWith(SUFFIX)) return false;
  const [host, boot, pid, random, ...rest] = name.slice(0, -SUFFIX.length).split(SEPARATOR);
  if (rest.length > 0 || random === undefined || host !== HOST_TAG) return false;
  if (!/^\d+$/.test(pid ?? '')) return false;
  if (boot !== BOOT) return true;
  return Number(pid) !== process.pid && !isAlive(Number(pid));
}
