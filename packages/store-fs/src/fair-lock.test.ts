import { execFile } from 'node:child_process';
import { existsSync, readdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CairnError } from '@cairn/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { acquireLock, type HeldLock } from './conversation-lock.js';

let dir: string;
let lock: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cairn-fair-lock-'));
  lock = join(dir, 'lock');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const options = { staleMs: 30_000, timeoutMs: 5_000 };
const tickets = () => readdirSync(dir).filter((name) => name.startsWith('lock.wait.'));

async function until(condition: () => boolean): Promise<void> {
  const reached = () => {
    if (!condition()) throw new Error(`not reached in time: ${condition}`);
  };
  await vi.waitFor(reached, { timeout: 10_000, interval: 2 });
}

/** Acquires in the background, noting the order in which callers got the lock. */
function queued(name: string, order: string[]): Promise<HeldLock> {
  return acquireLock(lock, options).then((held) => {
    order.push(name);
    return held;
  });
}

/** A ticket as another process would leave it: oldest in the queue. */
function foreignTicket(pid: number, host = hostname()): string {
  const ticket = join(dir, `lock.wait.00000000000000000001.${pid}.1`);
  writeFileSync(ticket, host);
  return ticket;
}

describe('fair lock', () => {
  it('a holder that lets go and wants the lock straight back queues behind the waiter', async () => {
    const order: string[] = [];
    const holder = await acquireLock(lock, options);
    const waiter = queued('waiter', order);
    await until(() => tickets().length === 1);
    holder.release();
    const again = queued('holder again', order);
    (await waiter).release();
    (await again).release();
    expect(order).toEqual(['waiter', 'holder again']);
    expect(tickets()).toEqual([]);
  });

  it('waiters are served in the order they asked', async () => {
    const order: string[] = [];
    const holder = await acquireLock(lock, options);
    const waiters = [];
    for (const name of ['first', 'second', 'third']) {
      const count = tickets().length;
      waiters.push(queued(name, order));
      await until(() => tickets().length === count + 1);
    }
    holder.release();
    for (const waiter of waiters) (await waiter).release();
    expect(order).toEqual(['first', 'second', 'third']);
  });

  it("a dead process's ticket is skipped and removed at once", async () => {
    // PID 2^22 + 1 is above Linux's pid_max default, so no such process exists.
    const ticket = foreignTicket(4194305);
    // Within a timeout shorter than a ticket's lifetime: the dead owner is noticed, not outlived.
    (await acquireLock(lock, { ...options, timeoutMs: 1_500 })).release();
    expect(existsSync(ticket)).toBe(false);
  });

  it('a ticket its owner stopped renewing expires', async () => {
    const ticket = foreignTicket(process.pid, 'another-host');
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(ticket, longAgo, longAgo);
    (await acquireLock(lock, options)).release();
    expect(existsSync(ticket)).toBe(false);
  });

  it('a live ticket ahead is waited for; a waiter that gives up leaves no ticket', async () => {
    const ticket = foreignTicket(process.pid);
    const error = await acquireLock(lock, { ...options, timeoutMs: 200 }).catch((caught: unknown) => caught);
    expect(CairnError.is(error, 'STORE_UNAVAILABLE')).toBe(true);
    expect(tickets()).toEqual([`lock.wait.00000000000000000001.${process.pid}.1`]);
    expect(existsSync(ticket)).toBe(true);
    expect(existsSync(lock)).toBe(false);
  });

  it('a waiting process killed with SIGKILL does not hold up the queue', async () => {
    // A live owner holds the lock; a child process queues for it and is killed while it waits.
    symlinkSync(`${hostname()} ${process.pid} ${Date.now()} test`, lock);
    const script = `import { acquireLock } from './dist/conversation-lock.js';
      await acquireLock(process.argv[1], { staleMs: 30000, timeoutMs: 60000 });`;
    const child = execFile(process.execPath, ['--input-type=module', '-e', script, lock], {
      cwd: new URL('..', import.meta.url),
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    await until(() => tickets().length === 1 || child.exitCode !== null);
    expect(tickets()).toHaveLength(1);
    child.kill('SIGKILL');
    await exited;
    // Its ticket looks freshly renewed for the next hour: only seeing that its process is dead lets
    // the queue go on (waiting for it to expire would time out).
    const inAnHour = new Date(Date.now() + 3_600_000);
    utimesSync(join(dir, tickets()[0] ?? ''), inAnHour, inAnHour);
    await rm(lock);
    (await acquireLock(lock, { ...options, timeoutMs: 60_000 })).release();
    expect(tickets()).toEqual([]);
  });
});
