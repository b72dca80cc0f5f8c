/** How long a deleted conversation can be restored before its delete is sent. */
export const UNDO_WINDOW_MS = 6000;

/** `setTimeout` and `clearTimeout`, injectable so tests can run the clock. */
export interface Timers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const browserTimers: Timers = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Deletes waiting out their undo window: each is sent (`send`) when its window passes or when
 * `sendAll` is called (the page is being left), and never once undone.
 */
export class PendingDeletes<Item extends { id: string }> {
  private readonly waiting = new Map<string, { item: Item; timer: unknown }>();
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly send: (item: Item) => void,
    private readonly timers: Timers = browserTimers,
    private readonly windowMs: number = UNDO_WINDOW_MS,
  ) {}

  /** The waiting deletes, oldest first. */
  get items(): Item[] {
    return [...this.waiting.values()].map((entry) => entry.item);
  }

  has(id: string): boolean {
    return this.waiting.has(id);
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  schedule(item: Item): void {
    if (this.waiting.has(item.id)) return;
    const timer = this.timers.set(() => this.sendNow(item.id), this.windowMs);
    this.waiting.set(item.id, { item, timer });
    this.changed();
  }

  /** Drops the delete unsent; the item, when it was waiting. */
  undo(id: string): Item | undefined {
    const entry = this.waiting.get(id);
    if (entry === undefined) return undefined;
    this.timers.clear(entry.timer);
    this.waiting.delete(id);
    this.changed();
    return entry.item;
  }

  sendAll(): void {
    for (const id of [...this.waiting.keys()]) this.sendNow(id);
  }

  private sendNow(id: string): void {
    const entry = this.waiting.get(id);
    if (entry === undefined) return;
    this.timers.clear(entry.timer);
    this.waiting.delete(id);
    this.changed();
    this.send(entry.item);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
