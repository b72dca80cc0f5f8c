export { assertWellFormedStream } from './assert-well-formed-stream.js';
export { type CollectedStream, collectStream } from './collect-stream.js';
export { MODEL_ADAPTER_CONFORMANCE_CASES } from './conformance-cases.js';
export type {
  ConformanceAdapterSettings,
  ConformanceCaseContext,
  ModelAdapterConformanceCase,
  ModelAdapterConformanceOptions,
} from './conformance-options.js';
export { CONFORMANCE_API_KEY } from './conformance-requests.js';
export { describeModelAdapterConformance } from './describe-model-adapter-conformance.js';
export { runModelAdapterConformanceCase } from './run-conformance-case.js';
