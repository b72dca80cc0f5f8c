import {
  type FSWatcher,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { exists } from './missing-files.js';
import { HOST, isAlive } from './process-liveness.js';

// Waiters take a lock in turn. A process that finds the lock taken leaves a ticket beside it,
// `lock.wait.<time>.<pid>.<n>` (the time: the machine's monotonic clock, so names sort in the order
// tickets were taken), holding its host name. While tickets exist, only the holder of the oldest may
// take the lock; so a holder that lets go and wants the lock straight back (a process appending in a
// tight loop) finds the waiters' tickets and queues behind them instead of taking it again at once.
// A ticket lives while its owner renews it: one whose process is gone, or not renewed for
// TICKET_TTL_MS (a hung or stopped process), is removed by the next waiter that looks. Tickets only
// decide who tries: the lock file alone makes its holder exclusive, so a lost ticket costs its owner
// its place in the queue, never exclusion.

const TICKET_TTL_MS = 2_000;
const TICKET_RENEW_MS = TICKET_TTL_MS / 8;
let ticketCount = 0;

function missing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

function unlinkIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (!missing(error)) throw error;
  }
}

/** One caller's place in the queue of the lock at `lockPath`; `leave()` when done, whatever happened. */
export class LockQueue {
  readonly #dir: string;
  readonly #lockName: string;
  readonly #prefix: string;
  #ticket: string | undefined;
  /** Whether the last look at the queue found this caller's ticket still there. */
  #listed = false;
  /** The tickets at the last look, oldest first. */
  #seen: string[] = [];
  /**
   * The ticket just ahead of this caller's (none: first in the queue). A waiter is woken only when
   * that ticket goes, or when the lock is released while it is first: one process wakes per change,
   * not every waiter.
   */
  #ahead: string | undefined;
  #renewedAt = 0;
  #watcher: FSWatcher | undefined;
  #watchFailed = false;
  /** Something in the lock's directory changed since the last `wait()` returned. */
  #changed = false;
  #wake: (() => void) | undefined;

  constructor(lockPath: string) {
    this.#dir = dirname(lockPath);
    this.#lockName = basename(lockPath);
    this.#prefix = `${this.#lockName}.wait.`;
  }

  /** The tickets in the queue, oldest first (none when the directory is gone). */
  #tickets(): string[] {
    // A new conversation's lock has no directory yet: a lookup says so, cheaper than a thrown ENOENT.
    if (!exists(this.#dir)) return [];
    try {
      return readdirSync(this.#dir)
        .filter((name) => name.startsWith(this.#prefix))
        .sort();
    } catch (error) {
      if (missing(error)) return [];
      throw error;
    }
  }

  #expired(name: string): boolean {
    const path = join(this.#dir, name);
    try {
      if (Date.now() - statSync(path).mtimeMs > TICKET_TTL_MS) return true;
      const pid = Number(name.slice(this.#prefix.length).split('.')[1]);
      return !isAlive(pid) && readFileSync(path, 'utf8') === HOST;
    } catch (error) {
      if (missing(error)) return true;
      throw error;
    }
  }

  /**
   * Whether it is this caller's turn to try for the lock: no live ticket is older than its own (or,
   * without a ticket, there is none at all). Expired tickets ahead are removed on the way.
   */
  isMyTurn(): boolean {
    const tickets = this.#tickets();
    const mine = this.#ticket === undefined ? -1 : tickets.indexOf(this.#ticket);
    this.#seen = tickets;
    this.#listed = mine !== -1;
    this.#ahead = mine > 0 ? tickets[mine - 1] : undefined;
    for (const name of tickets) {
      if (name === this.#ticket) return true;
      if (!this.#expired(name)) return false;
      unlinkIfPresent(join(this.#dir, name));
    }
    return true;
  }

  /**
   * Writes the ticket under another name and renames it into the queue: a process killed between
   * creating the file and writing its host would leave an empty ticket that no waiter can tell dead
   * from remote, holding up the queue until it expires.
   */
  #publish(ticket: string): void {
    const draft = join(this.#dir, `${this.#lockName}.draft.${process.pid}.${ticketCount}`);
    writeFileSync(draft, HOST);
    renameSync(draft, join(this.#dir, ticket));
  }

  /** Takes a place at the back of the queue, or keeps this caller's place (renewing its ticket). */
  join(): void {
    const now = Date.now();
    if (this.#ticket !== undefined && this.#listed) {
      if (now - this.#renewedAt < TICKET_RENEW_MS) return;
      try {
        utimesSync(join(this.#dir, this.#ticket), new Date(now), new Date(now));
        this.#renewedAt = now;
        return;
      } catch (error) {
        if (!missing(error)) throw error;
      }
    }
    // First time, or the ticket expired (this process was stopped too long) or went with its directory.
    const time = process.hrtime.bigint().toString().padStart(20, '0');
    const ticket = `${this.#prefix}${time}.${process.pid}.${++ticketCount}`;
    try {
      this.#publish(ticket);
    } catch (error) {
      if (!missing(error)) throw error;
      mkdirSync(this.#dir, { recursive: true });
      this.#publish(ticket);
    }
    this.#ticket = ticket;
    this.#listed = true;
    this.#ahead = this.#seen.at(-1);
    this.#renewedAt = now;
  }

  /** Resolves when the lock or the queue changes, or after `ms` (change notices can be missed). */
  wait(ms: number): Promise<void> {
    // A change between the caller's last look and the start of the watch would go unseen: look again.
    if (this.#watch()) return Promise.resolve();
    if (this.#changed) {
      this.#changed = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        this.#changed = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#wake = done;
    });
  }

  /**
   * Starts watching the lock's directory, if not yet; whether it started now. The watch wakes a
   * waiter as soon as its turn may have come, instead of at its next poll: polls alone would leave
   * the lock idle between holders for milliseconds.
   */
  #watch(): boolean {
    if (this.#watcher !== undefined || this.#watchFailed) return false;
    try {
      this.#watcher = watch(this.#dir, { persistent: false }, (_event, name) => {
        const mine = name === null || name === (this.#ahead ?? this.#lockName);
        if (!mine) return;
        this.#changed = true;
        this.#wake?.();
      });
      this.#watcher.on('error', () => this.#unwatch(true));
      return true;
    } catch {
      this.#watchFailed = true;
      return false;
    }
  }

  #unwatch(failed: boolean): void {
    this.#watcher?.close();
    this.#watcher = undefined;
    this.#watchFailed ||= failed;
  }

  /** Gives up this caller's place (after taking the lock, or giving up on it). */
  leave(): void {
    this.#unwatch(false);
    if (this.#ticket === undefined) return;
    unlinkIfPresent(join(this.#dir, this.#ticket));
    this.#ticket = undefined;
  }
}
