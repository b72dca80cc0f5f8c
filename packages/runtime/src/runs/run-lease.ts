import { CairnError, type ConversationStore } from '@cairn/core';
import { runConversationId } from './run-state.js';

/** How a process holds the runs it works on. */
export interface RunLeaseSettings {
  /** This process (`createProcessOwner`). */
  owner: string;
  /** How long a lease lasts without a renew: how soon a live process takes over a dead one's run. */
  ttlMs: number;
}

/**
 * Runs `work` holding the run's lease (when the store has leases): renewed every third of its ttl
 * while the work runs, released after. A lease lost meanwhile (this process stalled past its ttl and
 * another took the run over) aborts the work, whose signal is the caller's and the lease's. Held by
 * another live process: `STORE_CONFLICT`, nothing done.
 */
export async function withRunLease<T>(
  store: ConversationStore,
  runId: string,
  settings: RunLeaseSettings,
  signal: AbortSignal | undefined,
  work: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  const leases = store.leases;
  if (leases === undefined) return work(signal);
  const key = runConversationId(runId);
  const lease = await leases.acquire(key, { owner: settings.owner, ttlMs: settings.ttlMs });
  if (lease === undefined) {
    const holder = await leases.read(key);
    throw new CairnError('STORE_CONFLICT', `Run ${runId} is being worked on by another process`, {
      details: {
        runId,
        ...(holder === undefined ? {} : { owner: holder.owner, expiresAt: holder.expiresAt }),
      },
    });
  }
  const lost = new AbortController();
  const timer = setInterval(
    () => {
      lease.renew().then(
        (held) => {
          if (!held) lost.abort(new CairnError('LLM_ABORTED', `the lease of run ${runId} was lost`));
        },
        // A store briefly down: the next renew tries again, and the lease lapses only after its ttl.
        () => {},
      );
    },
    Math.max(50, Math.floor(settings.ttlMs / 3)),
  );
  timer.unref?.();
  try {
    return await work(signal === undefined ? lost.signal : AbortSignal.any([signal, lost.signal]));
  } finally {
    clearInterval(timer);
    await lease.release().catch(() => {});
  }
}
