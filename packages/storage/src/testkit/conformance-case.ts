import type { ConversationStore, JsonValue } from '@cairn/core';
import type { ProcessTestOptions } from './store-factory.js';

/** What a case needs beyond the basic contract; it is skipped when the backend lacks it. */
export type CaseRequirement = 'persistent' | 'concurrentInstances' | 'search' | 'leases' | 'processes';

export interface CaseContext {
  /** Opens a store over this case's location (a second call: a second instance). Closed after the case. */
  open(): Promise<ConversationStore>;
  /** This case's location, as `createLocation` returned it. */
  location: JsonValue;
  /** Present when the process tests are enabled. */
  processes?: ProcessTestOptions;
}

/** One conformance check: a plain async function using `node:assert`, so it runs under any runner. */
export interface ConformanceCase {
  name: string;
  requires?: readonly CaseRequirement[];
  /** Default 30 s. */
  timeoutMs?: number;
  run(context: CaseContext): Promise<void>;
}
