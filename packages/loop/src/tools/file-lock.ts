// Per key, the promise the next holder waits for: settles once everyone queued so far is done.
const queues = new Map<string, Promise<void>>();

/**
 * Runs `run` once every earlier holder of `key` (a file's real path) is done, so calls on one file
 * (two edits of one assistant message run in parallel) each see the others' writes; different keys
 * run in parallel. Waiting ends early with the abort reason when `signal` aborts: a cancelled call
 * does not go on to write once its turn comes.
 */
export async function withFileLock<T>(key: string, signal: AbortSignal, run: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  const tail = previous.then(() => done);
  queues.set(key, tail);
  try {
    await waitUnlessAborted(previous, signal);
    return await run();
  } finally {
    release();
    if (queues.get(key) === tail) queues.delete(key);
  }
}

function waitUnlessAborted(promise: Promise<void>, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(() => {
      signal.removeEventListener('abort', onAbort);
      if (signal.aborted) reject(signal.reason);
      else resolve();
    });
  });
}

/** How many keys have holders or waiters (for tests: none are left behind). */
export function heldFileLocks(): number {
  return queues.size;
}
