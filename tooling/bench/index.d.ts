export interface Figure {
  name: string;
  value: number;
  /** A ratio's ceiling: the figure passes when `value <= goal`. */
  goal?: number;
  /** A floor (a share achieved): the figure passes when `value >= goalAtLeast`. */
  goalAtLeast?: number;
  unit?: string;
  detail?: string;
  /**
   * The baseline or peer this figure is compared with, measured side by side in the same run
   * (e.g. the denominator of a ratio, or a peer library's value of the same measure).
   */
  peer?: Peer;
}
export interface Peer {
  /** What the peer is: `'AI SDK generateText'`, `'bare JSON.parse'`, `'bare Hono SSE'`. */
  name: string;
  value: number;
  unit?: string;
}
export declare function median(values: readonly number[]): number;
export declare function timePerCall(fn: (index: number) => unknown, iterations: number): Promise<number>;
export declare function interleaved<K extends string>(
  rounds: number,
  cases: Record<K, { fn: (index: number) => unknown; iterations: number }>,
): Promise<Record<K, number>>;
export interface PairedCpuOptions {
  baseline: (index: number) => unknown;
  candidate: (index: number) => unknown;
  /** Calls of one side in a row (`index` counts them from 0); default 10. */
  callsPerBlock?: number;
  /** Pairs (a block of each side) to keep; default 500. */
  pairs?: number;
  /** Pairs per group, for the spread; default 10. */
  pairsPerGroup?: number;
  /** Pairs to try at most (preempted ones are measured again); default 8 × `pairs`. */
  maxPairs?: number;
}
export interface PairedCpuResult {
  /** Candidate ÷ baseline: the two sides' total CPU time over the kept pairs. */
  ratio: number;
  /** Milliseconds of CPU per call. */
  baseline: number;
  candidate: number;
  /** The lower and upper quartile of the ratio over groups of `pairsPerGroup` pairs. */
  groupQuartiles: [number, number];
  pairs: number;
  /** Pairs left out because the OS preempted the process during one of their blocks. */
  preemptedPairs: number;
}
export declare function pairedCpu(options: PairedCpuOptions): Promise<PairedCpuResult>;
export declare function report(
  bench: string,
  figures: readonly Figure[],
  extra?: Record<string, unknown>,
): boolean;
export interface SeedJsonArrayStore {
  load(conversationId: string): unknown[];
  append(conversationId: string, message: unknown): void;
  /** Writes a whole conversation at once (setting up a benchmark, not the seed's behaviour). */
  prefill(conversationId: string, messages: readonly unknown[]): void;
}
export declare function createSeedJsonArrayStore(root: string): SeedJsonArrayStore;
export declare function benchMessage(
  id: string,
  bytes?: number,
): { id: string; role: 'tool'; tool_call_id: string; toolName: string; createdAt: string; content: string };
/** A seeded xorshift generator of numbers in [0, 1), so every run of a benchmark makes the same data. */
export declare function seededRandom(seed?: number): () => number;
/** Fills a store with conversations for `timeConversationSearch` (see index.js). */
export declare function seedConversationSearch(
  store: { append(conversationId: string, messages: unknown[]): Promise<unknown> },
  options?: { conversations?: number; messages?: number },
): Promise<void>;
/** Median milliseconds of `listConversations({ search })` on a seeded store (see index.js). */
export declare function timeConversationSearch(
  store: { listConversations(options: { search: string; limit: number }): Promise<unknown> },
  options?: { rounds?: number },
): Promise<{ noMatchFirstRunMs: number; noMatchMs: number; firstPageMs: number }>;
