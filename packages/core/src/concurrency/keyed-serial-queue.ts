/** Options of one `KeyedSerialQueue.run` call. */
export interface KeyedSerialRunOptions {
  /**
   * Ends the *wait* early: aborting while the task is still queued rejects at once with the abort reason,
   * and the task is skipped when its turn comes (the tasks behind it still wait for the ones before it).
   * Once the task started, the signal is the task's business.
   */
  signal?: AbortSignal;
}

/**
 * Runs tasks one at a time per key, in the order they were queued: two turns (or agent runs) on one
 * conversation never interleave, runs on different conversations go in parallel. A failed task does not stop
 * the ones behind it. Keys with nothing queued are forgotten.
 */
export class KeyedSerialQueue {
  // Per key, a promise that settles (never rejects) once the last task queued on it settled.
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, task: () => Promise<T>, options?: KeyedSerialRunOptions): Promise<T> {
    const signal = options?.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const previous = this.tails.get(key) ?? Promise.resolve();
    // Store appends come through here: without a signal, no promise beyond the task's and the tail.
    let turn: Promise<T>;
    let result: Promise<T>;
    if (signal === undefined) result = turn = previous.then(task);
    else ({ turn, result } = runUnlessAborted(previous, task, signal));
    const forget = () => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
    // The tail follows the task's turn, not `result`, which an abort rejects before that turn comes.
    const tail = turn.then(forget, forget);
    this.tails.set(key, tail);
    return result;
  }

  /** Whether `key` has a task running or waiting. */
  has(key: string): boolean {
    return this.tails.has(key);
  }

  /** Keys with a task running or waiting. */
  get size(): number {
    return this.tails.size;
  }

  /**
   * Resolves once every task queued so far has settled, whether it succeeded or failed (for a `close()`
   * that lets work in flight finish). Tasks queued after the call are not waited for.
   */
  async settled(): Promise<void> {
    await Promise.all(this.tails.values());
  }
}

/**
 * `turn` runs `task` after `previous` unless `signal` aborted by then; `result` settles like `turn`, or
 * rejects with the abort reason as soon as `signal` aborts before the task started.
 */
function runUnlessAborted<T>(
  previous: Promise<void>,
  task: () => Promise<T>,
  signal: AbortSignal,
): { turn: Promise<T>; result: Promise<T> } {
  let turn!: Promise<T>;
  const result = new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    turn = previous.then(() => {
      signal.removeEventListener('abort', onAbort);
      signal.throwIfAborted();
      return task();
    });
    turn.then(resolve, reject);
  });
  return { turn, result };
}
