import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { mkdir, rename, symlink, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CairnError } from '@cairn/core';
import { LockQueue } from './fair-lock.js';
import { exists } from './missing-files.js';
import { HOST, isAlive } from './process-liveness.js';

export interface LockOptions {
  /** A lock older than this is taken over even if its owner looks alive (a hung or remote owner). */
  staleMs: number;
  /** How long to wait for the lock before failing with a retryable `STORE_UNAVAILABLE`. */
  timeoutMs: number;
}

/** Who holds a lock: `host pid acquiredAtMs token` (lease records add fields after these). */
export interface Owner {
  host: string;
  pid: number;
  acquiredAt: number;
  raw: string;
}

// Tokens only need to be unique: a random per-process prefix and a counter (no syscall per lock).
const PROCESS_TOKEN = randomBytes(6).toString('hex');
let lockCount = 0;

/** A fresh owner stamp of this process: `host pid nowMs token`, the token never reused. */
export function newOwner(): string {
  return `${HOST} ${process.pid} ${Date.now()} ${PROCESS_TOKEN}-${++lockCount}`;
}

export function parseOwner(raw: string): Owner | undefined {
  const [host, pid, acquiredAt] = raw.split(' ');
  if (host === undefined || pid === undefined || acquiredAt === undefined) return undefined;
  return { host, pid: Number(pid), acquiredAt: Number(acquiredAt), raw };
}

// The lock is a symlink whose target names the owner: creating it is one atomic syscall that
// fails if it exists (the technique Mercurial uses). Where symlinks are not allowed (Windows
// without the privilege), an exclusively created file holds the owner instead. On libuv's pool:
// creating an entry waits for the file system's journal, ~1 ms while other files are synced.
export async function tryCreate(path: string, owner: string): Promise<boolean> {
  // A new conversation's directory is made first, not after a failed try: one trip to the pool less.
  if (!exists(dirname(path))) await mkdir(dirname(path), { recursive: true });
  try {
    await symlink(owner, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code === 'ENOENT') {
      await mkdir(dirname(path), { recursive: true });
      return tryCreate(path, owner);
    }
    if (code !== 'EPERM' && code !== 'ENOSYS') throw error;
  }
  try {
    await writeFile(path, owner, { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

export function readOwner(path: string): Owner | undefined {
  try {
    return parseOwner(readlinkSync(path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code !== 'EINVAL') throw error;
  }
  try {
    return parseOwner(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Whether `owner` is a process of this machine that is gone: its lock is stale at once. */
export function isOwnerGone(owner: Owner): boolean {
  return owner.host === HOST && !isAlive(owner.pid);
}

export function isStale(owner: Owner | undefined, staleMs: number): boolean {
  if (owner === undefined) return false;
  if (Date.now() - owner.acquiredAt > staleMs) return true;
  return isOwnerGone(owner);
}

/** The owner record of the lock at `path` as written, or undefined when there is none. */
export function readRawOwner(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return readOwner(path)?.raw;
  }
}

export function removeIfOwnedBy(path: string, raw: string): void {
  if (readRawOwner(path) !== raw) return;
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** A breaker older than this (or its lock's `staleMs`, if shorter) is taken to have died breaking. */
export const BREAKER_STALE_MS = 5_000;

/** The second lock that serialises breaking the lock at `path` (see `breakStaleLock`). */
export function breakerFile(path: string): string {
  return `${path}.break`;
}

// Breaking a stale lock is itself serialised by a second lock, so two processes that both saw the
// stale owner cannot both remove it (the second would remove the first one's fresh lock).
export async function breakStaleLock(path: string, stale: Owner, staleMs: number): Promise<void> {
  const breaker = breakerFile(path);
  const me = newOwner();
  if (!(await tryCreate(breaker, me))) {
    const other = readOwner(breaker);
    if (other !== undefined && isStale(other, Math.min(staleMs, BREAKER_STALE_MS))) {
      removeIfOwnedBy(breaker, other.raw);
    }
    return;
  }
  try {
    removeIfOwnedBy(path, stale.raw);
  } finally {
    removeIfOwnedBy(breaker, me);
  }
}

/** The marker a waiting process leaves so that a holder keeping the lock between appends lets go. */
export function wantFile(path: string): string {
  return `${path}.want`;
}

function requestRelease(path: string): void {
  try {
    if (!existsSync(wantFile(path))) writeFileSync(wantFile(path), '');
  } catch {
    // The directory may be gone (a delete in progress); the next attempt recreates it.
  }
}

// A lock's new owner is made beside it and renamed over it: the lock never stops existing, so no
// other process can take it in between. Off the event loop (the libuv pool): it is not urgent.
export async function replaceOwner(path: string, owner: string): Promise<void> {
  const next = `${path}.renew`;
  try {
    await symlink(owner, next);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      // Left by a renewal that died halfway: it is this lock holder's alone to remove.
      await unlink(next);
      return replaceOwner(path, owner);
    }
    if (code !== 'EPERM' && code !== 'ENOSYS') throw error;
    await writeFile(next, owner);
  }
  await rename(next, path);
}

/** A held lock; `release()` is idempotent. */
export interface HeldLock {
  /** When it was stamped: the time its owner stamp carries, which others judge staleness by. */
  acquiredAt: number;
  /**
   * Stamps the lock afresh without letting it go, so that others keep judging it young. Only for a
   * lock beyond doubt still this holder's (younger than `staleMs`, its owner alive): no one else can
   * have taken it over. A `release()` meanwhile takes effect once the new stamp is in place.
   */
  renew(): Promise<void>;
  release(): void;
}

/**
 * Takes the lock file at `path` (creating its directory), in turn with other waiters (see
 * fair-lock.ts), taking over locks whose owner died (same host) or that are older than `staleMs`.
 * Between attempts it waits for the lock's directory to change, polling with capped exponential
 * backoff in case a change goes unnoticed.
 */
export async function acquireLock(path: string, options: LockOptions): Promise<HeldLock> {
  const deadline = Date.now() + options.timeoutMs;
  const queue = new LockQueue(path);
  try {
    for (let attempt = 0; ; attempt++) {
      // A fresh stamp per attempt: the lock's age must count from when it was taken, not from when
      // the wait began, or a long wait would make it look stale to others at once.
      const me = newOwner();
      if (queue.isMyTurn() && (await tryCreate(path, me))) return heldLock(path, me);
      queue.join();
      requestRelease(path);
      const owner = readOwner(path);
      if (isStale(owner, options.staleMs) && owner !== undefined) {
        await breakStaleLock(path, owner, options.staleMs);
        // Retry at once only if the stale lock is gone; if another process is breaking it, wait.
        if (readOwner(path)?.raw !== owner.raw) continue;
      }
      if (Date.now() > deadline) {
        throw new CairnError(
          'STORE_UNAVAILABLE',
          `Timed out after ${options.timeoutMs} ms waiting for the lock ${path}`,
          {
            retryable: true,
            details: { path, owner: owner?.raw },
          },
        );
      }
      await queue.wait(Math.min(2 ** Math.min(attempt, 5), 20) * (0.5 + Math.random()));
    }
  } finally {
    queue.leave();
  }
}

/**
 * One attempt, no waiting (for a holder that must not queue, e.g. a lease): creates the lock at
 * `path` with `owner`, or, when the lock there is one `lapsed` judges stale, breaks it and tries
 * once more. True when `owner` now holds it.
 */
export async function tryAcquireLock(
  path: string,
  owner: string,
  lapsed: (current: Owner) => boolean,
): Promise<boolean> {
  if (await tryCreate(path, owner)) return true;
  const current = readOwner(path);
  if (current === undefined || !lapsed(current)) return false;
  await breakStaleLock(path, current, BREAKER_STALE_MS);
  return tryCreate(path, owner);
}

function heldLock(path: string, first: string): HeldLock {
  let owner = first;
  let held = true;
  let renewal: Promise<void> | undefined;
  const lock: HeldLock = {
    acquiredAt: parseOwner(first)?.acquiredAt ?? Date.now(),
    renew() {
      if (!held) return Promise.resolve();
      renewal ??= (async () => {
        const next = newOwner();
        try {
          await replaceOwner(path, next);
          owner = next;
          lock.acquiredAt = parseOwner(next)?.acquiredAt ?? Date.now();
        } finally {
          renewal = undefined;
          // Released while the rename was under way: removed only now, or the rename could put
          // this lock back over one another process took in between.
          if (!held) removeIfOwnedBy(path, owner);
        }
      })();
      return renewal;
    },
    release() {
      if (!held) return;
      held = false;
      if (renewal === undefined) removeIfOwnedBy(path, owner);
    },
  };
  return lock;
}
