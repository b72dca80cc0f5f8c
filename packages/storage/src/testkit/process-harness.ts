import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { JsonValue } from '@cairn/core';

/** The message id every `race` worker appends. */
export const RACE_MESSAGE_ID = 'race-message';

export interface AppendWorkerArgs {
  factoryModule: string;
  location: JsonValue;
  conversationId: string;
  writer: string;
  /**
   * `writer`: `count` one-message appends. `crash`: alternating single and tool-turn batches until
   * killed. `race`: at `startAt`, one append of the message `race-message` (prints `ok …` or
   * `conflict`). `lease`: acquires the lease `conversationId` as owner `writer` for `ttlMs`, prints
   * `leased <epoch> <expiresAt>` and stays alive, holding it, until killed.
   */
  mode: 'writer' | 'crash' | 'race' | 'lease';
  /** First batch number, so batches of successive crash trials have distinct ids. */
  start: number;
  count: number;
  /** `race`: when to append (ms since 1970), so that every worker has opened its store by then. */
  startAt?: number;
  /** `lease`: the lease's ttl. */
  ttlMs?: number;
}

/** One append a worker reported as returned. */
export interface Ack {
  n: number;
  firstSeq: number;
  count: number;
}

export interface WorkerHandle {
  child: ChildProcess;
  acks: Ack[];
  /** Every line printed other than an ack, in order. */
  lines: string[];
  /** Resolves when the process exits (with its code, or null when killed) and stderr. */
  exited: Promise<{ code: number | null; stderr: string }>;
  /** Resolves once `count` acks have arrived (or the process exited). */
  waitForAcks(count: number): Promise<void>;
  /** The first line starting with `prefix`, once printed; undefined if the process exited without it. */
  waitForLine(prefix: string): Promise<string | undefined>;
}

/** A factory module as the workers import it. */
export function moduleHref(module: string | URL): string {
  return typeof module === 'string' ? module : module.href;
}

const workerPath = fileURLToPath(new URL('./append-worker.js', import.meta.url));

/** Starts an append worker (a plain `node` process running the built kit). */
export function startWorker(args: AppendWorkerArgs): WorkerHandle {
  const child = spawn(process.execPath, [workerPath, JSON.stringify(args)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const acks: Ack[] = [];
  const lines: string[] = [];
  const waiters: { ready: () => boolean; resolve: () => void }[] = [];
  let pending = '';
  let stderr = '';
  let done = false;
  const wake = () => {
    for (const waiter of [...waiters]) {
      if (done || waiter.ready()) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  const until = (ready: () => boolean) =>
    new Promise<void>((resolve) => {
      waiters.push({ ready, resolve });
      wake();
    });
  const lineStarting = (prefix: string) => lines.find((line) => line.startsWith(prefix));
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    const complete = pending.split('\n');
    pending = complete.pop() ?? '';
    for (const line of complete) {
      const [tag, n, firstSeq, count] = line.split(' ');
      if (tag === 'ok') acks.push({ n: Number(n), firstSeq: Number(firstSeq), count: Number(count) });
      else lines.push(line);
    }
    wake();
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) => {
    // 'close', not 'exit': the last acks may still sit unread in the pipe when the process exits,
    // and a caller that missed one would reuse its message ids (refused now that ids are unique).
    child.on('close', (code) => {
      done = true;
      wake();
      resolve({ code, stderr });
    });
  });
  return {
    child,
    acks,
    lines,
    exited,
    waitForAcks: (count) => until(() => acks.length >= count),
    waitForLine: async (prefix) => {
      await until(() => lineStarting(prefix) !== undefined);
      return lineStarting(prefix);
    },
  };
}

/**
 * Runs an append worker to its end while this process waits, its event loop blocked: whatever this
 * process holds (a lock, a transaction) stays held meanwhile. Returns the exit status (null when
 * killed at `timeoutMs`), the acks and stderr.
 */
export function runWorkerSync(
  args: AppendWorkerArgs,
  timeoutMs: number,
): { status: number | null; acks: string[]; stderr: string } {
  const result = spawnSync(process.execPath, [workerPath, JSON.stringify(args)], {
    encoding: 'utf8',
    timeout: timeoutMs,
  });
  const acks = result.stdout.split('\n').filter((line) => line.startsWith('ok '));
  return { status: result.status, acks, stderr: result.stderr };
}
