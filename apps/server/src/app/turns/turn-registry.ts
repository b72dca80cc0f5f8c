import type { ServerMetrics, TurnResultLike } from '../server-metrics.js';

/**
 * The turns running (or waiting for their conversation) in this instance: counted against the
 * concurrency limit, each with the controller `POST …/abort` and shutdown fire.
 */
export class TurnRegistry {
  private readonly turns = new Map<string, Set<AbortController>>();
  // The turns that got their conversation's lock; the others wait behind one.
  private readonly running = new WeakSet<AbortController>();
  private count = 0;

  constructor(
    private readonly maxConcurrentTurns: number,
    private readonly observer?: Pick<ServerMetrics, 'turnStarted' | 'trackTurn'>,
  ) {}

  /** A controller for a new turn of `conversationId`, or undefined when the limit is reached. */
  begin(conversationId: string): AbortController | undefined {
    if (this.count >= this.maxConcurrentTurns) return undefined;
    const controller = new AbortController();
    const set = this.turns.get(conversationId) ?? new Set();
    set.add(controller);
    this.turns.set(conversationId, set);
    this.count += 1;
    this.observer?.turnStarted();
    return controller;
  }

  /** Passes a begun turn's promise through, so its outcome is counted (chat, run and agent turns alike). */
  track<T extends TurnResultLike>(turn: Promise<T>): Promise<T> {
    return this.observer === undefined ? turn : this.observer.trackTurn(turn);
  }

  /** The turn got its conversation's lock: `abortRunning` aborts it from now on. */
  started(controller: AbortController): void {
    this.running.add(controller);
  }

  end(conversationId: string, controller: AbortController): void {
    const set = this.turns.get(conversationId);
    if (!set?.delete(controller)) return;
    this.count -= 1;
    if (set.size === 0) this.turns.delete(conversationId);
  }

  has(conversationId: string): boolean {
    return this.turns.has(conversationId);
  }

  get size(): number {
    return this.count;
  }

  /** Aborts every turn of `conversationId` here (the running one and any queued behind it). */
  abort(conversationId: string, reason?: unknown): boolean {
    const set = this.turns.get(conversationId);
    if (set === undefined) return false;
    for (const controller of set) controller.abort(reason);
    return true;
  }

  /** Aborts the conversation's running turn here, not those queued behind it; whether there was one. */
  abortRunning(conversationId: string, reason?: unknown): boolean {
    let aborted = false;
    for (const controller of this.turns.get(conversationId) ?? []) {
      if (!this.running.has(controller)) continue;
      controller.abort(reason);
      aborted = true;
    }
    return aborted;
  }

  abortAll(reason?: unknown): void {
    for (const conversationId of this.turns.keys()) this.abort(conversationId, reason);
  }
}
