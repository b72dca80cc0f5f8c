/**
 * Group commit for one file: `sync()` resolves once a sync that began after the call has
 * completed, so everything written before the call is covered. Calls that arrive while a sync is
 * in flight share the next one: one sync for all of them, however many there were.
 */
export class GroupCommit {
  #inFlight: Promise<void> | undefined;
  #next: Promise<void> | undefined;

  constructor(private readonly run: () => Promise<void>) {}

  sync(): Promise<void> {
    // The next sync has not begun yet: it covers this caller's bytes too.
    if (this.#next !== undefined) return this.#next;
    const inFlight = this.#inFlight;
    if (inFlight === undefined) return this.#start();
    const next = inFlight.then(
      () => this.#startNext(),
      () => this.#startNext(),
    );
    this.#next = next;
    return next;
  }

  /** Settles once no sync is in flight or waiting (whatever their outcome). */
  async idle(): Promise<void> {
    while (this.#next !== undefined || this.#inFlight !== undefined) {
      await (this.#next ?? this.#inFlight)?.catch(() => undefined);
    }
  }

  #startNext(): Promise<void> {
    this.#next = undefined;
    return this.#start();
  }

  #start(): Promise<void> {
    const sync = this.run().finally(() => {
      if (this.#inFlight === sync) this.#inFlight = undefined;
    });
    this.#inFlight = sync;
    return sync;
  }
}
