/** A tool call waiting for its result. */
export interface PendingToolCall {
  id: string;
  toolName: string;
  /** Processor clock when the call arrived: the result's duration is measured from it. */
  startedAt: number;
}

// How many timed-out calls are remembered, so a result arriving late is recognised as such.
const REMEMBERED_INTERRUPTIONS = 1024;

/**
 * Calls waiting for results, oldest first. Every call leaves: with its result, by timing out, or
 * at the end of the stream, so nothing is kept forever.
 */
export class PendingToolCalls {
  private readonly calls = new Map<string, PendingToolCall>();
  private readonly interrupted = new Set<string>();

  get size(): number {
    return this.calls.size;
  }

  has(id: string): boolean {
    return this.calls.has(id);
  }

  add(call: PendingToolCall): void {
    // A repeated id restarts its wait and moves to the back, keeping the map in arrival order.
    this.calls.delete(call.id);
    this.calls.set(call.id, call);
  }

  take(id: string): PendingToolCall | undefined {
    const call = this.calls.get(id);
    if (call !== undefined) this.calls.delete(id);
    return call;
  }

  /** When the oldest call started, or undefined when none waits. */
  oldestStart(): number | undefined {
    for (const call of this.calls.values()) return call.startedAt;
    return undefined;
  }

  /** Removes and returns the calls that started at or before `cutoff` (all of them when omitted). */
  takeStartedBy(cutoff = Number.POSITIVE_INFINITY): PendingToolCall[] {
    const taken: PendingToolCall[] = [];
    for (const call of this.calls.values()) {
      if (call.startedAt > cutoff) break;
      taken.push(call);
    }
    for (const call of taken) this.calls.delete(call.id);
    return taken;
  }

  /** Remembers (a bounded number of) calls answered by an interrupted result. */
  markInterrupted(id: string): void {
    this.interrupted.add(id);
    if (this.interrupted.size > REMEMBERED_INTERRUPTIONS) {
      for (const oldest of this.interrupted) {
        this.interrupted.delete(oldest);
        break;
      }
    }
  }

  /** True (once) when this call timed out before: its result is late. */
  takeInterrupted(id: string): boolean {
    return this.interrupted.delete(id);
  }
}
