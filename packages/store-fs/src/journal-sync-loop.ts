// The journal's sync loop, shared between the main thread and the thread that syncs: the main thread
// writes records and hands out tickets (one per record, in order), the loop syncs the journal's files
// in order until the tickets someone waits for are covered, starting the next sync as soon as the last
// one returns. Tickets are Int32 counters compared modulo 2^32.

/** Where each field is in the shared memory (passed to the loop's code, which runs as source in its thread). */
export const LOOP_LAYOUT = {
  /** The last ticket handed out (its record written to its file). */
  WRITTEN: 0,
  /** The ticket a sync must reach: a durable append waiting, or a file to seal. */
  WANTED: 1,
  /** The last ticket a completed sync covered. */
  SYNCED: 2,
  /** Bumped by the main thread when it has work for the loop: the futex word the loop sleeps on. */
  WAKE: 3,
  /** The loop sleeps (or is about to): the main thread wakes it only then. */
  SLEEPING: 4,
  /** Bumped by the loop after each sync, failure, or file done: the main thread waits on it. */
  DONE: 5,
  /** A failed sync's errno (negative): the loop stops until the main thread clears it. */
  ERRNO: 6,
  /** The ticket the failed sync was to reach. */
  FAILED_AT: 7,
  /** The file the loop is on: every file before it has all its records synced. */
  FILE: 8,
  /** Files handed to the loop so far. */
  OPENED: 9,
  CLOSING: 10,
  /** Syncs begun (tests and diagnostics). */
  SYNCS: 11,
  HEADER: 16,
  /** Files in a ring, each its descriptor, the ticket its records end at, and whether that end is set. */
  FILES: 64,
  FD: 0,
  END: 1,
  ENDED: 2,
  FIELDS: 3,
} as const;

export type LoopLayout = typeof LOOP_LAYOUT;

/** A sync to run (`fd` up to ticket `target`), or the WAKE value to sleep on; undefined once closing. */
export type LoopStep = { fd: number; target: number } | { sleep: number } | undefined;

// The two functions below are run as source by the sync thread (toString): they use their arguments
// and globals only.

/**
 * The loop's next step. A file whose records are all synced is left for the next (the main thread
 * then closes it); its last records are synced before any of the next file's, so a sync of a file
 * covers every record written before it in the files before.
 */
export function nextLoopStep(h: Int32Array, files: Int32Array, L: LoopLayout): LoopStep {
  for (;;) {
    // Read before the state: a change after it moves WAKE, and the sleep on this value returns at once.
    const wake = Atomics.load(h, L.WAKE);
    if (Atomics.load(h, L.CLOSING) === 1) return undefined;
    // WRITTEN before the file's end: a ticket of the next file is handed out after this file's end is set.
    const written = Atomics.load(h, L.WRITTEN);
    const file = Atomics.load(h, L.FILE);
    if (file === Atomics.load(h, L.OPENED) || Atomics.load(h, L.ERRNO) !== 0) return { sleep: wake };
    const at = (file & (L.FILES - 1)) * L.FIELDS;
    const ended = Atomics.load(files, at + L.ENDED) === 1;
    const end = Atomics.load(files, at + L.END);
    const synced = Atomics.load(h, L.SYNCED);
    if (ended && synced === end) {
      Atomics.store(h, L.FILE, file + 1);
      Atomics.add(h, L.DONE, 1);
      Atomics.notify(h, L.DONE);
      continue;
    }
    if (((Atomics.load(h, L.WANTED) - synced) | 0) <= 0) return { sleep: wake };
    Atomics.add(h, L.SYNCS, 1);
    return { fd: Atomics.load(files, at + L.FD), target: ended && ((written - end) | 0) > 0 ? end : written };
  }
}

/** Publishes a sync's outcome (`errno` 0: it succeeded) and tells the main thread. */
export function loopSyncDone(h: Int32Array, L: LoopLayout, target: number, errno: number): void {
  if (errno === 0) {
    Atomics.store(h, L.SYNCED, target);
  } else {
    Atomics.store(h, L.FAILED_AT, target);
    Atomics.store(h, L.ERRNO, errno);
  }
  Atomics.add(h, L.DONE, 1);
  Atomics.notify(h, L.DONE);
}
