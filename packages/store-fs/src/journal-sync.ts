import { Worker } from 'node:worker_threads';
import type { FileSyncer } from './file-syncer.js';
import { LOOP_LAYOUT as L, type LoopStep, loopSyncDone, nextLoopStep } from './journal-sync-loop.js';
import { onceChanged, syncError, waitAsync } from './thread-wait.js';

// The loop in a thread of its own: it sleeps (Atomics.wait) while no ticket is wanted, and starts the
// next fdatasync as soon as one returns, without the event loop.
const threadSource = (syncCall: string) => `
const { workerData } = process.getBuiltinModule('node:worker_threads');
const { fdatasyncSync } = process.getBuiltinModule('node:fs');
const sync = ${syncCall};
const nextLoopStep = ${nextLoopStep.toString()};
const loopSyncDone = ${loopSyncDone.toString()};
const { header, files, layout: L } = workerData;
const h = new Int32Array(header), f = new Int32Array(files);
for (let step = nextLoopStep(h, f, L); step !== undefined; step = nextLoopStep(h, f, L)) {
  if ('sleep' in step) {
    Atomics.store(h, L.SLEEPING, 1);
    Atomics.wait(h, L.WAKE, step.sleep);
    Atomics.store(h, L.SLEEPING, 0);
    continue;
  }
  let errno = 0;
  try {
    sync(step.fd);
  } catch (error) {
    errno = typeof error.errno === 'number' && error.errno < 0 ? error.errno : -5;
  }
  loopSyncDone(h, L, step.target, errno);
}
`;

export interface JournalSyncOptions {
  /**
   * Runs the loop on the main thread through this syncer instead of in a thread (tests hold and fail
   * its syncs).
   */
  syncer?: FileSyncer;
  /** The thread's sync function as source (`fdatasyncSync`): tests make it fail or wait. */
  syncCall?: string;
  /**
   * After a failed sync of `file`, writes again the records of it after ticket `synced` (their pages
   * may have been dropped with the error); throws if it cannot.
   */
  rewrite: (file: number, synced: number) => void;
}

interface Waiter {
  ticket: number;
  resolve(): void;
  reject(error: Error): void;
}

const after = (a: number, b: number) => ((a - b) | 0) > 0;

/**
 * The journal's group commit: tickets handed out as records are written, and a sync loop that runs
 * while a wanted ticket is not synced yet, each sync covering every record written before it began.
 * A durable append waits for the sync in flight, at most one more, and one wake-up of the event loop.
 * A failed sync rejects the appends it covered; the loop stops until their records are written again
 * (`rewrite`), so no later append is acknowledged on a sync that followed the failure without them.
 */
export class JournalSync {
  readonly #h = new Int32Array(new SharedArrayBuffer(L.HEADER * 4));
  readonly #files = new Int32Array(new SharedArrayBuffer(L.FILES * L.FIELDS * 4));
  #opened = 0;
  #written = 0;
  #wanted = 0;
  readonly #waiters: Waiter[] = [];
  readonly #finished: Waiter[] = [];
  #worker: Worker | undefined;
  #loop: Promise<void> | undefined;
  #watching = false;
  // The loop's DONE count when waiters were last settled: a poll with no progress since does nothing.
  #seenDone = 0;
  #poller: NodeJS.Timeout | undefined;
  // The failure the loop stopped on was reported; it waits for the records' rewrite.
  #failureSeen = false;
  #closed = false;

  constructor(private readonly options: JournalSyncOptions) {}

  /** The last ticket a completed sync covered. */
  get synced(): number {
    return Atomics.load(this.#h, L.SYNCED);
  }

  /** Syncs begun so far (tests and diagnostics). */
  get syncsStarted(): number {
    return Atomics.load(this.#h, L.SYNCS);
  }

  /** Whether the loop sleeps, waiting for a ticket to be wanted (tests and diagnostics). */
  get sleeping(): boolean {
    return Atomics.load(this.#h, L.SLEEPING) === 1;
  }

  /** Hands a new file to the loop (the records from now on go to it; the last file ends here). */
  open(fd: number): number {
    if (this.#opened - Atomics.load(this.#h, L.FILE) >= L.FILES) {
      throw new Error('too many journal files are waiting for their last sync');
    }
    if (this.#opened > 0) this.end(this.#opened - 1);
    const at = (this.#opened & (L.FILES - 1)) * L.FIELDS;
    Atomics.store(this.#files, at + L.FD, fd);
    Atomics.store(this.#files, at + L.END, 0);
    Atomics.store(this.#files, at + L.ENDED, 0);
    Atomics.store(this.#h, L.OPENED, ++this.#opened);
    this.#start();
    return this.#opened - 1;
  }

  /** Ends `file` where its records end, and has them synced (its seal). */
  end(file: number): void {
    const at = (file & (L.FILES - 1)) * L.FIELDS;
    if (Atomics.load(this.#files, at + L.ENDED) === 1) return;
    Atomics.store(this.#files, at + L.END, this.#written);
    Atomics.store(this.#files, at + L.ENDED, 1);
    this.#want(this.#written);
    // Its records may all be synced already: the loop leaves it for the next file.
    this.#wake();
  }

  /**
   * Settles the waits that syncs completed since the last look. The loop's wake-up is a task that
   * queues behind everything a busy event loop has to do; looking from the main thread's own work
   * (each record written, each wait, the store's loads, a 1 ms timer while someone waits) ends a turn
   * as soon as its sync is done, not one loop iteration later.
   */
  poll(): void {
    if (this.#waiters.length === 0 && this.#finished.length === 0) this.#stopPolling();
    else if (Atomics.load(this.#h, L.DONE) !== this.#seenDone) this.#collect();
  }

  #stopPolling(): void {
    clearInterval(this.#poller);
    this.#poller = undefined;
  }

  /** A record written (to the last file opened): its ticket. */
  written(): number {
    this.poll();
    this.#written = (this.#written + 1) | 0;
    Atomics.store(this.#h, L.WRITTEN, this.#written);
    return this.#written;
  }

  /** Resolves once a sync that began after ticket's record was written has completed. */
  durable(ticket: number): Promise<void> {
    this.poll();
    if (!after(ticket, this.synced)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.#waiters.push({ ticket, resolve, reject });
      this.#want(ticket);
      this.#watch();
      if (this.#failureSeen) this.#recover();
    });
  }

  /** Resolves once every record of `file` is synced and the loop has left it (its descriptor unused). */
  finished(file: number): Promise<void> {
    if (file < Atomics.load(this.#h, L.FILE)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.#finished.push({ ticket: file, resolve, reject });
      this.#watch();
      if (this.#failureSeen) this.#recover();
    });
  }

  /** Ends the loop (after the journal's files are finished). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stopPolling();
    Atomics.store(this.#h, L.CLOSING, 1);
    this.#wake();
    await this.#worker?.terminate();
    await this.#loop;
  }

  #want(ticket: number): void {
    if (!after(ticket, this.#wanted)) return;
    this.#wanted = ticket;
    Atomics.store(this.#h, L.WANTED, ticket);
    this.#wake();
  }

  #wake(): void {
    Atomics.add(this.#h, L.WAKE, 1);
    if (Atomics.load(this.#h, L.SLEEPING) === 1) Atomics.notify(this.#h, L.WAKE);
  }

  #start(): void {
    if (this.#worker !== undefined || this.#loop !== undefined || this.#closed) return;
    const { syncer } = this.options;
    if (syncer !== undefined) {
      this.#loop = runOnMainThread(syncer, this.#h, this.#files);
      return;
    }
    const worker = new Worker(threadSource(this.options.syncCall ?? 'fdatasyncSync'), {
      eval: true,
      workerData: { header: this.#h.buffer, files: this.#files.buffer, layout: L },
    });
    if (this.#waiters.length === 0 && this.#finished.length === 0) worker.unref();
    worker.on('error', () => undefined);
    // A thread that died mid-sync left the shared state as before that sync: a new one goes on from it.
    worker.on('exit', () => {
      this.#worker = undefined;
      if (!this.#closed) this.#start();
    });
    this.#worker = worker;
  }

  /** One armed wait on the loop's completions while someone waits for one. */
  #watch(): void {
    if (this.#waiters.length === 0 && this.#finished.length === 0) return;
    // The wait on completions keeps no process alive; the thread does while someone waits.
    this.#worker?.ref();
    if (this.#poller === undefined) {
      this.#poller = setInterval(() => this.poll(), 1);
      this.#poller.unref();
    }
    if (this.#watching) return;
    this.#watching = true;
    const seen = Atomics.load(this.#h, L.DONE);
    this.#collect();
    onceChanged(this.#h, L.DONE, seen, () => {
      this.#watching = false;
      this.#collect();
      this.#watch();
    });
  }

  /** Settles the waiters the loop's progress (or failure) decides. */
  #collect(): void {
    // Read before the state it announces: a later sync moves it again and is looked at next time.
    this.#seenDone = Atomics.load(this.#h, L.DONE);
    const synced = this.synced;
    while (this.#waiters.length > 0 && !after(this.#waiters[0]?.ticket ?? 0, synced)) {
      this.#waiters.shift()?.resolve();
    }
    const file = Atomics.load(this.#h, L.FILE);
    for (const waiter of this.#finished.filter((waiting) => waiting.ticket < file)) {
      this.#finished.splice(this.#finished.indexOf(waiter), 1);
      waiter.resolve();
    }
    const errno = Atomics.load(this.#h, L.ERRNO);
    if (errno !== 0 && !this.#failureSeen) {
      this.#failureSeen = true;
      // Exactly the appends the failed sync covered.
      const failedAt = Atomics.load(this.#h, L.FAILED_AT);
      const error = syncError(errno);
      while (this.#waiters.length > 0 && !after(this.#waiters[0]?.ticket ?? 0, failedAt)) {
        this.#waiters.shift()?.reject(error);
      }
      this.#recover();
    }
    if (this.#waiters.length === 0 && this.#finished.length === 0) {
      this.#worker?.unref();
      this.#stopPolling();
    }
  }

  // The failed file's records after the last synced ticket written again, then the loop goes on (its
  // next sync covers them). If they cannot be, every wait fails until a later try succeeds.
  #recover(): void {
    try {
      this.options.rewrite(Atomics.load(this.#h, L.FILE), this.synced);
    } catch (error) {
      const failure = new Error(`the journal cannot be written again after a failed sync: ${String(error)}`);
      for (const waiter of this.#waiters.splice(0)) waiter.reject(failure);
      for (const waiter of this.#finished.splice(0)) waiter.reject(failure);
      return;
    }
    this.#failureSeen = false;
    Atomics.store(this.#h, L.ERRNO, 0);
    this.#wake();
  }
}

/** The loop on the main thread, each sync through `syncer` (for tests: the same steps as the thread's). */
async function runOnMainThread(syncer: FileSyncer, h: Int32Array, files: Int32Array): Promise<void> {
  for (let step: LoopStep = nextLoopStep(h, files, L); step !== undefined; step = nextLoopStep(h, files, L)) {
    if ('sleep' in step) {
      Atomics.store(h, L.SLEEPING, 1);
      const wait = waitAsync(h, L.WAKE, step.sleep);
      if (wait.async) await wait.value;
      Atomics.store(h, L.SLEEPING, 0);
      continue;
    }
    let errno = 0;
    try {
      await syncer.sync(step.fd);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).errno;
      errno = typeof code === 'number' && code < 0 ? code : -5;
    }
    loopSyncDone(h, L, step.target, errno);
  }
}
