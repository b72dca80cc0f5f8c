import type { ConversationStore, JsonValue } from '@cairn/core';

/**
 * How the conformance kit gets stores of a backend. A location is where one test's data lives (a
 * temp directory, a database schema); it is JSON because the multi-process tests send it to child
 * processes, which open their own store over it.
 */
export interface StoreFactory {
  /** A new, empty location. */
  createLocation(): Promise<JsonValue>;
  /** A store over `location`; called again for a second instance or after a restart. */
  openStore(location: JsonValue): Promise<ConversationStore>;
  /** Removes what `createLocation` made. */
  destroyLocation?(location: JsonValue): Promise<void>;
}

/** Settings of the multi-process tests (they need the factory as a module child processes import). */
export interface ProcessTestOptions {
  /** A JavaScript module (runnable by plain `node`) exporting the `StoreFactory` functions. */
  factoryModule: string | URL;
  /** Concurrent writer processes (default 8). */
  writers?: number;
  /** Appends per writer (default 1,000). */
  appendsPerWriter?: number;
  /** SIGKILL trials of the crash test (default 50); 0 skips it. */
  crashTrials?: number;
}

export interface ConformanceOptions {
  /** The backend's name in test titles. */
  name: string;
  factory: StoreFactory;
  /** Enables the multi-process concurrency and crash tests. */
  processes?: ProcessTestOptions;
  /** Case names (or name prefixes) to leave out, with a reason in your test file. */
  skip?: readonly string[];
  /**
   * Multiplies every case's timeout (default 1): the timeouts suffice on an idle machine, so pass
   * more (e.g. 3) where the tests share a loaded machine with others, as on CI.
   */
  timeoutFactor?: number;
}
