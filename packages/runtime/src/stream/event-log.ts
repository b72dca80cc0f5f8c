/**
 * Every event of one producer, kept from the first, read by any number of cursors: each reader
 * starts at the beginning whenever it starts, none can miss or drop an event, none slows the
 * producer (a turn's events are few enough to keep).
 */
export class EventLog<E> {
  private readonly events: E[] = [];
  private closed = false;
  private waiters: Array<() => void> = [];

  push(event: E): void {
    if (this.closed) return;
    this.events.push(event);
    this.wake();
  }

  close(): void {
    this.closed = true;
    this.wake();
  }

  private wake(): void {
    // Most pushes have no reader waiting: no array to copy then.
    if (this.waiters.length === 0) return;
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** The events from the first, then each as it comes, until `close`. */
  async *read(): AsyncGenerator<E, void, undefined> {
    let index = 0;
    while (true) {
      if (index < this.events.length) {
        yield this.events[index++] as E;
      } else if (this.closed) {
        return;
      } else {
        await new Promise<void>((resolve) => this.waiters.push(resolve));
      }
    }
  }
}
