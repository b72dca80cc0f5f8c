import { readFileSync } from 'node:fs';
import { HOST, isAlive } from './process-liveness.js';

// A journal file's name says whose it is: `<host>--<boot>--<pid>.<start>--<random>.wal`. The boot
// id and the process's start time tell a pid from before a restart, or of a container started
// again, from a live process that was given the same number.
const SUFFIX = '.wal';
const SEPARATOR = '--';

/** Who owns a journal file, as its name tells. */
export type JournalOwner = 'this process' | 'alive' | 'gone' | 'unknown';

function readBootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim().replaceAll('-', '').slice(0, 16);
  } catch {
    return 'unknown';
  }
}

/** When process `pid` started (clock ticks since boot, Linux), or undefined when it does not run. */
function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

const BOOT = readBootId();
const START = startTime(process.pid) ?? '0';
// Only what can be in a file name, and never the separator.
const HOST_TAG = HOST.replace(/[^A-Za-z0-9.]/g, '_') || 'host';

/** The name of a new journal file of this process (`owner` only for tests: a journal of another). */
export function journalFileName(random: string, owner = { pid: process.pid, start: START }): string {
  return [HOST_TAG, BOOT, `${owner.pid}.${owner.start}`, random].join(SEPARATOR) + SUFFIX;
}

/**
 * Whose journal file `name` is. On this machine (same host name and boot), a process is alive when
 * its pid runs with the start time the name gives (`/proc`; a running pid whose entry cannot be read
 * is `unknown`); from an earlier boot it is gone. A file
 * of another host name (another machine on a shared directory, or a container that got a new name)
 * cannot be told: `unknown`. Undefined: not a journal file.
 */
export function journalOwner(name: string): JournalOwner | undefined {
  if (!name.endsWith(SUFFIX)) return undefined;
  const [host, boot, process_, random, ...rest] = name.slice(0, -SUFFIX.length).split(SEPARATOR);
  const match = /^(\d+)\.(\d+)$/.exec(process_ ?? '');
  if (rest.length > 0 || random === undefined || match === null) return undefined;
  if (host !== HOST_TAG || BOOT === 'unknown') return 'unknown';
  if (boot !== BOOT) return 'gone';
  const [, pid, start] = match;
  if (Number(pid) === process.pid && start === START) return 'this process';
  const running = startTime(Number(pid));
  if (running !== undefined) return running === start ? 'alive' : 'gone';
  // Its /proc entry unreadable (hidden from other users): a pid that runs cannot be told apart.
  return isAlive(Number(pid)) ? 'unknown' : 'gone';
}
