import { Worker } from 'node:worker_threads';
import type { FileSyncer } from './file-syncer.js';
import { onceChanged, syncError } from './thread-wait.js';

// Up to this many syncs run at once. A sync waits for the disk, not the CPU, and the filesystem
// commits concurrent syncs in one journal transaction, so more threads than cores pay off (on
// ext4, 16 libuv threads syncing gave 1.6x the throughput of the default 4). libuv's own pool is
// shared with every fs and dns call of the process and cannot be resized by a library.
const MAX_THREADS = 8;
// Slots for syncs in flight; more wait in a list on the main thread until a slot is free.
const SLOTS = 256;

// The header's fields (Int32 each).
const HEAD = 0; // next submission a thread takes (threads compete for it with compareExchange)
const TAIL = 1; // next submission the main thread writes; the futex word sleeping threads wait on
const SLEEPERS = 2; // threads asleep (or about to be): the main thread wakes one only if all are
const DONE = 3; // completions so far; the main thread waits on it (Atomics.waitAsync)
const CLOSING = 4;
const HEADER = 8;

// A slot's fields: its state, the descriptor, the errno of a failed sync, the thread running it.
const FIELDS = 4;
const FREE = 0;
const QUEUED = 1;
const RUNNING = 2;
const SYNCED = 3;
const FAILED = 4;

// The worker is a script (eval), so it needs no file of its own next to the built or source module;
// getBuiltinModule works whether the process evaluates it as CommonJS or as a module.
const workerSource = (syncCall: string, beforeSleep: string) => `
const { workerData } = process.getBuiltinModule('node:worker_threads');
const { fdatasyncSync } = process.getBuiltinModule('node:fs');
const sync = ${syncCall};
const { header, ring, slots, slotCount, threadId } = workerData;
const h = new Int32Array(header), r = new Int32Array(ring), s = new Int32Array(slots);
for (;;) {
  // The futex word is read before the ring is found empty and the wait compares against that value:
  // a submission after the read has changed it, so the wait returns at once instead of sleeping
  // through it (the main thread may have seen this thread awake and not woken anyone).
  const tail = Atomics.load(h, ${TAIL});
  const head = Atomics.load(h, ${HEAD});
  if (head === tail) {
    if (Atomics.load(h, ${CLOSING}) === 1) break;
    ${beforeSleep}
    Atomics.add(h, ${SLEEPERS}, 1);
    Atomics.wait(h, ${TAIL}, tail);
    Atomics.sub(h, ${SLEEPERS}, 1);
    continue;
  }
  // The tail read above may be stale: other threads may have taken, since, what was submitted after
  // it, leaving head past that tail. A submission is at head only while head is before the tail now.
  if (((Atomics.load(h, ${TAIL}) - head) | 0) <= 0) continue;
  // The entry is read before it is claimed: once head moves on, threads taking the entries after it
  // free their slots, and the main thread may write a new submission over this position.
  const taken = r[head & (slotCount - 1)];
  if (Atomics.compareExchange(h, ${HEAD}, head, (head + 1) | 0) !== head) continue;
  // More waiting: this thread wakes a sleeping peer for it, so the wake-up's cost (a cross-core
  // futex wake) is not the main thread's, which wakes a thread only when all sleep.
  if (((head + 1) | 0) !== Atomics.load(h, ${TAIL}) && Atomics.load(h, ${SLEEPERS}) > 0)
    Atomics.notify(h, ${TAIL}, 1);
  const slot = taken * ${FIELDS};
  s[slot + 3] = threadId;
  Atomics.store(s, slot, ${RUNNING});
  try {
    sync(s[slot + 1]);
    Atomics.store(s, slot, ${SYNCED});
  } catch (error) {
    s[slot + 2] = typeof error.errno === 'number' ? error.errno : -5;
    Atomics.store(s, slot, ${FAILED});
  }
  Atomics.add(h, ${DONE}, 1);
  Atomics.notify(h, ${DONE});
}
`;

interface Pending {
  resolve(): void;
  reject(error: Error): void;
}

interface Thread {
  worker: Worker;
  id: number;
}

/**
 * Sync threads fed through shared memory instead of messages: a submission is a descriptor in a
 * ring (a few atomic stores), a sleeping thread is woken (`Atomics.notify`) only if no thread is
 * awake to take it, and completions come back as slot states with one `Atomics.waitAsync` wake-up
 * of the event loop covering all the syncs that completed meanwhile. Measured against a pool fed by
 * postMessage and against libuv's fs.fdatasync (bench/sync-handoff.mjs): the least main-thread CPU
 * per durable append. A sync resolves after `fdatasync` returned, a failed one rejects with its
 * errno, a thread that dies fails the sync it was running (the others are taken by the threads left,
 * or a new one), and `close()` waits for the syncs submitted, then ends every thread.
 */
export class SharedSyncQueue implements FileSyncer {
  readonly #header = new Int32Array(new SharedArrayBuffer(HEADER * 4));
  readonly #ring = new Int32Array(new SharedArrayBuffer(SLOTS * 4));
  readonly #slots = new Int32Array(new SharedArrayBuffer(SLOTS * FIELDS * 4));
  readonly #free: number[] = Array.from({ length: SLOTS }, (_, index) => SLOTS - 1 - index);
  readonly #pending = new Map<number, Pending>();
  readonly #waiting: { fd: number; pending: Pending }[] = [];
  readonly #threads: Thread[] = [];
  #nextThreadId = 1;
  #watching = false;
  #wakeScheduled = false;
  /** Ticks that submitted syncs, and the wake-ups the main thread paid for them (tests, the bench). */
  readonly wakeUps = { ticks: 0, notified: 0 };
  /** close() waiting for the pending syncs. */
  #drained: (() => void) | undefined;
  #closed = false;

  /**
   * `syncCall` is the threads' sync function as source (`fdatasyncSync`): tests replace it to make a
   * thread die in the middle of a sync. `beforeSleep` is source a thread runs between finding the
   * ring empty and sleeping: tests widen that window to show no submission is lost in it.
   */
  constructor(
    private readonly maxThreads = MAX_THREADS,
    private readonly syncCall = 'fdatasyncSync',
    private readonly beforeSleep = '',
  ) {}

  /** How many threads are running (for tests and diagnostics). */
  get threads(): number {
    return this.#threads.length;
  }

  /** How many of them sleep, waiting for a submission (for tests and diagnostics). */
  get sleeping(): number {
    return Atomics.load(this.#header, SLEEPERS);
  }

  sync(fd: number): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('the sync pool is closed'));
    return new Promise<void>((resolve, reject) => {
      const pending = { resolve, reject };
      const slot = this.#free.pop();
      if (slot === undefined) this.#waiting.push({ fd, pending });
      else this.#submit(slot, fd, pending);
    });
  }

  #submit(slot: number, fd: number, pending: Pending): void {
    const base = slot * FIELDS;
    this.#slots[base + 1] = fd;
    Atomics.store(this.#slots, base, QUEUED);
    this.#pending.set(slot, pending);
    const tail = Atomics.load(this.#header, TAIL);
    this.#ring[tail & (SLOTS - 1)] = slot;
    Atomics.store(this.#header, TAIL, (tail + 1) | 0);
    if (this.#pending.size === 1) for (const thread of this.#threads) thread.worker.ref();
    if (
      this.#threads.length < this.maxThreads &&
      this.#pending.size > this.#threads.length &&
      Atomics.load(this.#header, SLEEPERS) === 0
    )
      this.#start();
    if (!this.#wakeScheduled) {
      this.#wakeScheduled = true;
      setImmediate(this.#endOfTick);
    }
    this.#watch();
  }

  /**
   * Once per event-loop tick, after its submissions: a thread is woken only if all sleep. An awake
   * thread takes the submissions before it sleeps (and wakes peers while more wait).
   */
  readonly #endOfTick = (): void => {
    this.#wakeScheduled = false;
    this.wakeUps.ticks++;
    this.#wakeIfAllAsleep();
  };

  #wakeIfAllAsleep(): void {
    if (Atomics.load(this.#header, HEAD) === Atomics.load(this.#header, TAIL)) return;
    if (Atomics.load(this.#header, SLEEPERS) < this.#threads.length) return;
    this.wakeUps.notified++;
    Atomics.notify(this.#header, TAIL, 1);
  }

  #start(): void {
    const id = this.#nextThreadId++;
    const worker = new Worker(workerSource(this.syncCall, this.beforeSleep), {
      eval: true,
      workerData: {
        header: this.#header.buffer,
        ring: this.#ring.buffer,
        slots: this.#slots.buffer,
        slotCount: SLOTS,
        threadId: id,
      },
    });
    const thread = { worker, id };
    if (this.#pending.size === 0) worker.unref();
    worker.on('error', () => undefined);
    worker.on('exit', () => this.#lost(thread));
    this.#threads.push(thread);
  }

  /** One armed wait on the completion counter while syncs are pending. */
  #watch(): void {
    if (this.#watching || this.#pending.size === 0) return;
    this.#watching = true;
    const seen = Atomics.load(this.#header, DONE);
    this.#collect();
    onceChanged(this.#header, DONE, seen, () => {
      this.#watching = false;
      this.#collect();
      this.#watch();
    });
  }

  /** Settles every pending sync whose thread has finished it. */
  #collect(): void {
    for (const [slot, pending] of this.#pending) {
      const base = slot * FIELDS;
      const state = Atomics.load(this.#slots, base);
      if (state !== SYNCED && state !== FAILED) continue;
      if (state === SYNCED) pending.resolve();
      else pending.reject(syncError(this.#slots[base + 2] ?? -5));
      this.#release(slot);
    }
    if (this.#pending.size > 0) return;
    if (!this.#closed) for (const thread of this.#threads) thread.worker.unref();
    this.#drained?.();
  }

  #release(slot: number): void {
    this.#pending.delete(slot);
    Atomics.store(this.#slots, slot * FIELDS, FREE);
    const next = this.#waiting.shift();
    if (next === undefined) this.#free.push(slot);
    else this.#submit(slot, next.fd, next.pending);
  }

  /** A thread that died fails the sync it was running (never a silent success); others take the rest. */
  #lost(thread: Thread): void {
    const index = this.#threads.indexOf(thread);
    if (index >= 0) this.#threads.splice(index, 1);
    this.#collect();
    for (const slot of [...this.#pending.keys()]) {
      const base = slot * FIELDS;
      if (Atomics.load(this.#slots, base) !== RUNNING || this.#slots[base + 3] !== thread.id) continue;
      this.#pending.get(slot)?.reject(new Error('the sync thread exited'));
      this.#release(slot);
    }
    // Submissions no thread has taken yet need one: a new thread, or a sleeping one (the main thread
    // counted the dead one as awake, so it may have woken none).
    if (this.#pending.size > 0 && this.#threads.length === 0) this.#start();
    else this.#wakeIfAllAsleep();
  }

  /** Waits for the syncs submitted, then lets every thread finish and waits for it to end. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // Let the syncs submitted finish: their appends are waiting for them.
    if (this.#pending.size > 0) await new Promise<void>((resolve) => (this.#drained = resolve));
    // Idle threads are unref'd: without this the process could exit before they end. A thread may be
    // about to sleep as CLOSING is set (and miss the wake-up): terminate() ends it in its wait too.
    const threads = [...this.#threads];
    for (const thread of threads) thread.worker.ref();
    Atomics.store(this.#header, CLOSING, 1);
    Atomics.notify(this.#header, TAIL);
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }
}
