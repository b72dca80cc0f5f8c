import { CairnError } from '@cairn/core';
import { turnAbortedError } from './turn-aborted-error.js';

type Waiter = (error?: unknown) => void;

/**
 * At most `size` holders at once; the others wait first come, first served, each until a slot frees up,
 * its signal aborts (`LLM_ABORTED`), its time runs out (`STORE_UNAVAILABLE`, retryable) or `close`.
 * The turn lock takes a slot before taking a pooled connection, so waiting for a connection can be
 * aborted and timed out (a `pg.Pool` queue can do neither).
 */
export class ConnectionSlots {
  private free: number;
  // A Set iterates in insertion order: the first entry is the longest waiting.
  private readonly waiters = new Set<Waiter>();
  private closedError: CairnError | undefined;

  constructor(size: number) {
    this.free = size;
  }

  acquire(options: { conversationId: string; signal?: AbortSignal; timeoutMs: number }): Promise<void> {
    const { conversationId, signal, timeoutMs } = options;
    if (this.closedError !== undefined) return Promise.reject(this.closedError);
    if (signal?.aborted) return Promise.reject(turnAbortedError(conversationId, signal.reason));
    if (this.free > 0) {
      this.free -= 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = (error) => {
        this.waiters.delete(waiter);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (error === undefined) resolve();
        else reject(error);
      };
      const onAbort = () => waiter(turnAbortedError(conversationId, signal?.reason));
      const timer = Number.isFinite(timeoutMs)
        ? setTimeout(() => waiter(connectionsBusyError(conversationId, timeoutMs)), timeoutMs)
        : undefined;
      // A request waiting here must not keep a shutting-down process alive.
      timer?.unref();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.add(waiter);
    });
  }

  /** Frees a slot: it passes straight to the longest waiting, if any. */
  release(): void {
    const [next] = this.waiters;
    if (next === undefined) this.free += 1;
    else next();
  }

  /** Rejects every waiter, and every later `acquire`, with `error`. */
  close(error: CairnError): void {
    this.closedError = error;
    for (const waiter of [...this.waiters]) waiter(error);
  }
}

/** Every lock connection stayed busy (each holds a running turn) for `timeoutMs`: 503, retryable. */
export function connectionsBusyError(conversationId: string, timeoutMs: number): CairnError {
  return new CairnError(
    'STORE_UNAVAILABLE',
    `No turn lock connection became free within ${timeoutMs} ms (every one holds a running turn)`,
    {
      retryable: true,
      retryAfterMs: 1_000,
      details: { conversationId, reason: 'turn-lock-connections-busy' },
    },
  );
}
