import { Worker } from 'node:worker_threads';
import { CairnError } from '@cairn/core';

/**
 * The worker's code, plain JavaScript evaluated as a script (`eval: true`): the same from the built
 * package and from the sources under test, with no file to locate. It answers each text with the
 * indexes of its lines the regular expression matches, at most `limit`.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const regex = new RegExp(workerData.source, workerData.flags);
parentPort.on('message', ({ text, limit }) => {
  const lines = text.split(/\\r?\\n/);
  const matched = [];
  for (let index = 0; index < lines.length && matched.length < limit; index++) {
    if (regex.test(lines[index])) matched.push(index);
  }
  parentPort.postMessage(matched);
});
`;

export interface LineMatcherOptions {
  /** The pattern as the model gave it, for the message when it is too slow. */
  pattern: string;
  /** The whole search stops with `TOOL_TIMEOUT` after this long. */
  timeoutMs: number;
  /** Aborting it stops the search at once, with the abort reason. */
  signal: AbortSignal;
}

/** Applies a regular expression to texts off the event loop; `close` when done. */
export interface LineMatcher {
  /** The indexes of the lines of `text` that match, at most `limit`, in order. */
  matchingLines(text: string, limit: number): Promise<number[]>;
  close(): Promise<void>;
}

/**
 * Runs `regex` in a worker thread: a pattern that backtracks catastrophically (`^(a+)+$`) would
 * otherwise hold the event loop, so neither a timeout nor an abort could stop it. The worker is
 * terminated when `signal` aborts or `timeoutMs` passes, whatever it is doing.
 */
export function startLineMatcher(regex: RegExp, options: LineMatcherOptions): LineMatcher {
  const { pattern, timeoutMs, signal } = options;
  signal.throwIfAborted();
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { source: regex.source, flags: regex.flags },
  });
  let failure: unknown;
  let pending: { resolve: (lines: number[]) => void; reject: (error: unknown) => void } | undefined;
  const fail = (error: unknown) => {
    if (failure !== undefined) return;
    failure = error;
    pending?.reject(error);
    pending = undefined;
    void worker.terminate();
  };
  worker.on('message', (lines: number[]) => {
    pending?.resolve(lines);
    pending = undefined;
  });
  worker.on('error', fail);
  worker.on('exit', () => fail(new CairnError('TOOL_FAILED', 'The search stopped unexpectedly.')));
  // The limit is on matching: it starts once the worker runs, so a slow start on a loaded machine
  // is not taken for a slow pattern.
  let timer: NodeJS.Timeout | undefined;
  const startClock = () => {
    timer = setTimeout(
      () =>
        fail(
          new CairnError(
            'TOOL_TIMEOUT',
            `The search for ${JSON.stringify(pattern)} did not finish within ${timeoutMs / 1000} s and was stopped: ` +
              'the pattern is too slow (nested repetition such as (a+)+ can take exponential time on some lines). ' +
              'Simplify it, or narrow path or glob.',
            { details: { pattern } },
          ),
        ),
      // Timers overflow past 2^31 - 1 ms and fire at once.
      Math.min(timeoutMs, 2 ** 31 - 1),
    );
  };
  worker.once('online', startClock);
  const onAbort = () => fail(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  return {
    matchingLines(text, limit) {
      if (failure !== undefined) return Promise.reject(failure);
      return new Promise((resolve, reject) => {
        pending = { resolve, reject };
        worker.postMessage({ text, limit });
      });
    },
    async close() {
      worker.off('online', startClock);
      if (timer !== undefined) clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      failure ??= new CairnError('TOOL_FAILED', 'The search is closed.');
      await worker.terminate();
    },
  };
}
