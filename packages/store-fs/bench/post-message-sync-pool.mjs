// The A/B baseline of bench/sync-handoff.mjs: the store's first sync threads (commit 6968fa7), each
// sync handed over with postMessage and answered with one. The store now uses SharedSyncQueue.
import { Worker } from 'node:worker_threads';

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

export class PostMessageSyncPool {
  #threads = [];
  #pending = new Map();
  #nextId = 0;

  constructor(maxThreads = 8) {
    this.maxThreads = maxThreads;
  }

  sync(fd) {
    const thread = this.#pick();
    const id = this.#nextId++;
    if (thread.busy++ === 0) thread.worker.ref();
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, thread });
      thread.worker.postMessage({ id, fd });
    });
  }

  // The least busy thread, or a new one while every running thread is busy and there is room.
  #pick() {
    let best;
    for (const thread of this.#threads) if (best === undefined || thread.busy < best.busy) best = thread;
    if (best !== undefined && (best.busy === 0 || this.#threads.length >= this.maxThreads)) return best;
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    const thread = { worker, busy: 0 };
    worker.unref();
    worker.on('message', ({ id, error }) => {
      const pending = this.#pending.get(id);
      this.#pending.delete(id);
      if (--pending.thread.busy === 0) pending.thread.worker.unref();
      if (error === undefined) pending.resolve();
      else pending.reject(Object.assign(new Error(error.message), { code: error.code }));
    });
    this.#threads.push(thread);
    return thread;
  }

  // The bench closes it only once its store has waited for every sync.
  async close() {
    await Promise.all(this.#threads.splice(0).map((thread) => thread.worker.terminate()));
  }
}
