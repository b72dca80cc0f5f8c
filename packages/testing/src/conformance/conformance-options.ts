import type { ModelAdapter } from '@cairn/core';
import type { MockProvider, MockProviderProtocol } from '../mock-servers/mock-provider-protocol.js';
import type { MockProviderServer } from '../mock-servers/start-mock-provider-server.js';
import type { ScriptTurn } from '../script-turn.js';

/** What `createAdapter` receives: point the adapter (through its official SDK) at the mock server. */
export interface ConformanceAdapterSettings {
  baseURL: string;
  apiKey: string;
  /** Set by each case: 0 for most, more where the case checks retrying (or not retrying). */
  maxRetries: number;
}

export interface ModelAdapterConformanceOptions {
  /** Names the suite: `ModelAdapter conformance: <name>`. */
  name: string;
  /**
   * The wire protocol the adapter speaks: a built-in one by name, or your own
   * `MockProviderProtocol` for any other API. The kit starts a mock server speaking it for every
   * case, and takes what a case must know of the API (raw finish reasons, error bodies) from it.
   */
  provider: MockProvider | MockProviderProtocol;
  createAdapter: (settings: ConformanceAdapterSettings) => ModelAdapter;
  /** Case names to report as skipped (say why in the suite), e.g. for a deliberately partial adapter. */
  skip?: string[];
}

/** What a case works with: a fresh mock server playing its turns and an adapter pointed at it. */
export interface ConformanceCaseContext {
  protocol: MockProviderProtocol;
  server: MockProviderServer;
  adapter: ModelAdapter;
}

/** One conformance check. It throws (a vitest assertion error) when the adapter does not conform. */
export interface ModelAdapterConformanceCase {
  group: string;
  name: string;
  turns: ScriptTurn[];
  /** The adapter's `maxRetries` for this case (default 0). */
  maxRetries?: number;
  timeoutMs?: number;
  run(context: ConformanceCaseContext): Promise<void>;
}
