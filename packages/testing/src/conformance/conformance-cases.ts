import { ERROR_CASES } from './cases/error-cases.js';
import { ROUND_TRIP_CASES } from './cases/round-trip-cases.js';
import { STREAM_FAILURE_CASES } from './cases/stream-failure-cases.js';
import { STREAM_SHAPE_CASES } from './cases/stream-shape-cases.js';
import { TEXT_CASES } from './cases/text-cases.js';
import { TOOL_CALL_CASES } from './cases/tool-call-cases.js';
import type { ModelAdapterConformanceCase } from './conformance-options.js';

/** Every case of the kit, in the order the suite runs them. */
export const MODEL_ADAPTER_CONFORMANCE_CASES: readonly ModelAdapterConformanceCase[] = [
  ...TEXT_CASES,
  ...TOOL_CALL_CASES,
  ...STREAM_SHAPE_CASES,
  ...ERROR_CASES,
  ...STREAM_FAILURE_CASES,
  ...ROUND_TRIP_CASES,
];
