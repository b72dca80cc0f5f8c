import { Worker } from 'node:worker_threads';

/** Makes an open file's written bytes durable (`fdatasync`) without blocking the event loop. */
export interface FileSyncer {
  sync(fd: number): Promise<void>;
  /** Waits for the syncs in flight, then ends the threads. */
  close(): Promise<void>;
}

// Up to this many syncs run at once. A sync waits for the disk, not the CPU, and the filesystem
// commits concurrent syncs in one journal transaction, so more threads than cores pay off (on
// ext4, 16 libuv threads syncing gave 1.6x the throughput of the default 4). libuv's own pool is
// shared with every fs and dns call of the process and cannot be resized by a library.
const MAX_THREADS = 8;

// The worker is a script (eval), so it needs no file of its own next to the built or source module;
// getBuiltinModule works whether the process evaluates it as CommonJS or as a module.
const WORKER_SOURCE = `
const { parentPort } = process.getBuiltinModule('node:worker_threads');
const { fdatasyncSync } = process.getBuiltinModule('node:fs');
parentPort.on('message', ({ id, fd }) => {
  try {
    fdatasyncSync(fd);
    parentPort.postMessage({ id });
  } catch (error) {
    parentPort.postMessage({ id, error: { code: error.code, message: String(error.message ?? error) } });
  }
});
`;

interface SyncReply {
  id: number;
  error?: { code?: string; message: string };
}

interface Thread {
  worker: Worker;
  busy: number;
}

interface Pending {
  resolve(): void;
  reject(error: Error): void;
  thread: Thread;
}

/**
 * A small pool of worker threads that only run `fdatasync`. Threads start on demand (one more only
 * when every running one is busy), are unref'd while idle so they never keep the process alive,
 * and are ended by `close()`.
 */
export class SyncPool implements FileSyncer {
  readonly #threads: Thread[] = [];
  readonly #pending = new Map<number, Pending>();
  #nextId = 0;
  #closed = false;

  constructor(private readonly maxThreads = MAX_THREADS) {}

  /** How many threads are running (for tests and diagnostics). */
  get threads(): number {
    return this.#threads.length;
  }

  sync(fd: number): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('the sync pool is closed'));
    const thread = this.#pick();
    const id = this.#nextId++;
    if (thread.busy++ === 0) thread.worker.ref();
    return new Promise<void>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, thread });
      thread.worker.postMessage({ id, fd });
    });
  }

  /** The least busy thread, or a new one while every running thread is busy and there is room. */
  #pick(): Thread {
    let best: Thread | undefined;
    for (const thread of this.#threads) if (best === undefined || thread.busy < best.busy) best = thread;
    if (best !== undefined && (best.busy === 0 || this.#threads.length >= this.maxThreads)) return best;
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    const thread: Thread = { worker, busy: 0 };
    worker.unref();
    worker.on('message', (reply: SyncReply) => this.#settle(reply));
    worker.on('error', (error) => this.#fail(thread, error));
    worker.on('exit', () => this.#fail(thread, new Error('the sync thread exited')));
    this.#threads.push(thread);
    return thread;
  }

  #settle({ id, error }: SyncReply): void {
    const pending = this.#pending.get(id);
    if (pending === undefined) return;
    this.#pending.delete(id);
    if (--pending.thread.busy === 0) pending.thread.worker.unref();
    if (error === undefined) pending.resolve();
    else pending.reject(Object.assign(new Error(error.message), { code: error.code }));
  }

  /** A thread that died fails the syncs it was running (never a silent success) and is replaced on demand. */
  #fail(thread: Thread, error: Error): void {
    const index = this.#threads.indexOf(thread);
    if (index >= 0) this.#threads.splice(index, 1);
    for (const [id, pending] of this.#pending) {
      if (pending.thread !== thread) continue;
      this.#pending.delete(id);
      pending.reject(error);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    const threads = this.#threads.splice(0);
    await Promise.all(
      threads.map(async (thread) => {
        // Let the syncs in flight finish: their appends are waiting for them.
        while (thread.busy > 0 && [...this.#pending.values()].some((pending) => pending.thread === thread)) {
          await new Promise<void>((resolve) => {
            thread.worker.once('message', () => resolve());
            thread.worker.once('exit', () => resolve());
          });
        }
        await thread.worker.terminate();
      }),
    );
  }
}
