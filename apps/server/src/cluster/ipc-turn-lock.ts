import { CairnError } from '@cairn/core';
import { turnAbortedError } from '../turn-lock/turn-aborted-error.js';
import type { ConversationTurnLock } from '../turn-lock/turn-lock.js';
import type { WorkerChannel } from './worker-channel.js';

// How long a worker keeps a conversation's lock unused before giving it back to the primary.
const LEASE_IDLE_MS = 10_000;

/** A lock the primary granted, kept between this worker's turns of the conversation. */
interface Lease {
  conversationId: string;
  request: number;
  /** A turn of this worker holds it. */
  running: boolean;
  /** The primary asked for it back: it goes once the turn in progress ends. */
  revoked: boolean;
  /** This worker's other turns of the conversation, waiting for the one in progress. */
  waiting: Set<() => void>;
  idle: NodeJS.Timeout | undefined;
}

export interface IpcTurnLockOptions {
  /** How long an unused lock is kept (default 10 s). */
  leaseIdleMs?: number;
}

/**
 * The turn lock of a cluster worker on the fs or SQLite store: the primary grants each conversation to
 * one turn at a time, across all workers, in the order asked. A granted lock stays with the worker
 * after its turn (a lease), so the next turn of a conversation it serves (a keep-alive connection stays
 * on its worker) starts without a round trip to the primary; it goes back as soon as the primary says
 * another worker waits (after the turn in progress, before this worker's next), and after
 * `leaseIdleMs` unused. The lock is lost only when the primary is gone (then nobody serialises the
 * workers any more), and a worker's own death releases its locks.
 */
export function createIpcTurnLock(
  channel: WorkerChannel,
  options: IpcTurnLockOptions = {},
): ConversationTurnLock {
  const leaseIdleMs = options.leaseIdleMs ?? LEASE_IDLE_MS;
  let nextRequest = 1;
  // The lease is made as the grant arrives, not when the granted turn goes on: the primary's request
  // for the lock back can come in the same batch, right after the grant.
  const granted = new Map<number, () => void>();
  const leases = new Map<string, Lease>();
  const leaseOf = new Map<number, Lease>();
  let closed = false;
  channel.onMessage((message) => {
    if (message.cairn === 'lock-granted') granted.get(message.request)?.();
    if (message.cairn === 'lock-revoke') {
      const lease = leaseOf.get(message.request);
      if (lease === undefined) return;
      lease.revoked = true;
      if (!lease.running) giveBack(lease);
    }
  });
  const gone = () =>
    new CairnError('STORE_UNAVAILABLE', 'the cluster primary is gone: turn locks are unavailable');

  function giveBack(lease: Lease): void {
    clearTimeout(lease.idle);
    if (leases.get(lease.conversationId) === lease) leases.delete(lease.conversationId);
    leaseOf.delete(lease.request);
    channel.send({ cairn: 'lock-release', request: lease.request });
    // This worker's waiting turns ask the primary, in line behind the worker that asked first.
    for (const wake of lease.waiting) wake();
    lease.waiting.clear();
  }

  // The turn that held `lease` ended: the lock goes to this worker's next turn, back to the primary,
  // or stays until the next turn (or the idle limit).
  function turnEnded(lease: Lease): void {
    lease.running = false;
    if (lease.revoked || closed || channel.disconnected.aborted) {
      giveBack(lease);
      return;
    }
    // Set before the hand-over too: the next turn clears it as it takes the lock, and a lock whose
    // next turn was aborted meanwhile still goes back in time.
    lease.idle = setTimeout(() => {
      if (!lease.running) giveBack(lease);
    }, leaseIdleMs);
    lease.idle.unref();
    const [next] = lease.waiting;
    if (next === undefined) return;
    lease.waiting.delete(next);
    next();
  }

  // Resolves with what `arm`'s callback is given; rejects when the turn is aborted or the primary goes first.
  async function waitUnlessAborted<T>(
    conversationId: string,
    signal: AbortSignal | undefined,
    arm: (resolve: (value: T) => void) => void,
  ): Promise<T> {
    const { disconnected } = channel;
    let onAbort = () => {};
    let onGone = () => {};
    try {
      return await new Promise<T>((resolve, reject) => {
        onAbort = () => reject(turnAbortedError(conversationId, signal?.reason));
        onGone = () => reject(gone());
        signal?.addEventListener('abort', onAbort, { once: true });
        disconnected.addEventListener('abort', onGone, { once: true });
        arm(resolve);
        if (signal?.aborted) onAbort();
      });
    } finally {
      signal?.removeEventListener('abort', onAbort);
      disconnected.removeEventListener('abort', onGone);
    }
  }

  // Waits while another turn of this worker holds the conversation.
  async function waitForOwnTurn(lease: Lease, signal: AbortSignal | undefined): Promise<void> {
    let wake = () => {};
    try {
      await waitUnlessAborted<void>(lease.conversationId, signal, (resolve) => {
        wake = resolve;
        lease.waiting.add(resolve);
      });
    } finally {
      lease.waiting.delete(wake);
    }
  }

  // A new lock from the primary (no lease, or one being given back).
  async function acquire(conversationId: string, signal: AbortSignal | undefined): Promise<Lease> {
    const request = nextRequest++;
    try {
      return await waitUnlessAborted<Lease>(conversationId, signal, (resolve) => {
        granted.set(request, () => resolve(hold(conversationId, request)));
        channel.send({ cairn: 'lock-acquire', request, conversationId });
      });
    } catch (error) {
      // Withdrawn from the queue (or released, had the grant crossed the abort on the way).
      channel.send({ cairn: 'lock-release', request });
      throw error;
    } finally {
      granted.delete(request);
    }
  }

  // The primary grants in order: a lease given back before this grant is gone from the map.
  function hold(conversationId: string, request: number): Lease {
    const lease: Lease = {
      conversationId,
      request,
      running: true,
      revoked: false,
      waiting: new Set(),
      idle: undefined,
    };
    leases.set(conversationId, lease);
    leaseOf.set(request, lease);
    return lease;
  }

  async function take(conversationId: string, signal: AbortSignal | undefined): Promise<Lease> {
    for (;;) {
      if (signal?.aborted) throw turnAbortedError(conversationId, signal.reason);
      const lease = leases.get(conversationId);
      if (lease === undefined || lease.revoked) return acquire(conversationId, signal);
      if (!lease.running) {
        clearTimeout(lease.idle);
        lease.running = true;
        return lease;
      }
      await waitForOwnTurn(lease, signal);
    }
  }

  return {
    async run(conversationId, work, options = {}) {
      if (closed) throw new CairnError('STORE_UNAVAILABLE', 'the turn lock is closed');
      if (channel.disconnected.aborted) throw gone();
      const lease = await take(conversationId, options.signal);
      try {
        return await work(channel.disconnected);
      } finally {
        turnEnded(lease);
      }
    },
    async ready() {
      if (closed) throw new CairnError('STORE_UNAVAILABLE', 'the turn lock is closed');
      if (channel.disconnected.aborted) throw gone();
    },
    async close() {
      closed = true;
      // Running turns give theirs back as they end.
      for (const lease of [...leases.values()]) if (!lease.running) giveBack(lease);
    },
  };
}
