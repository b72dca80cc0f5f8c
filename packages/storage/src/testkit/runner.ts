// The kit without a test framework: for the CLI, benchmark scripts and other runners.
export { assertConsecutive, caughtCairnError, listAll, rejectsWithCode } from './assert-store.js';
export type { CaseContext, CaseRequirement, ConformanceCase } from './conformance-case.js';
export { CONFORMANCE_GROUPS } from './conformance-cases.js';
export { type CaseOutcome, runConformanceCase } from './run-conformance-case.js';
export { runCrashTrials } from './run-crash-trials.js';
export type { ConformanceOptions, ProcessTestOptions, StoreFactory } from './store-factory.js';
export {
  assistantText,
  assistantToolCalls,
  crashBatch,
  toolResult,
  toolTurn,
  userMessage,
  withoutSeq,
} from './test-messages.js';
