/**
 * Runs tasks one at a time per key, in the order they were queued: two turns (or agent runs) on one
 * conversation never interleave, runs on different conversations go in parallel. A failed task does not stop
 * the ones behind it. Keys with nothing queued are forgotten.
 */
export class KeyedSerialQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    // A tail never rejects (see below), so the task runs once the previous one settled either way.
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with a task running or waiting. */
  get size(): number {
    return this.tails.size;
  }
}
