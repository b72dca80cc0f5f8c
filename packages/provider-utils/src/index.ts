export { abortableSleep } from './abortable-sleep.js';
export { missingApiKeyError, readApiKey, requireApiKey } from './api-key.js';
export { type AttemptSignal, createAttemptSignal } from './attempt-signal.js';
export { classifyError, type ErrorContext } from './classify-error.js';
export { classifyHttpError, type HttpErrorResponse, httpErrorCode } from './classify-http-error.js';
export {
  type CleanJsonSchemaOptions,
  cleanJsonSchema,
  GEMINI_SCHEMA_KEYWORDS,
  type JsonSchemaTarget,
} from './clean-json-schema.js';
export {
  type AnthropicUsage,
  convertAnthropicUsage,
  mergeAnthropicUsage,
} from './convert-anthropic-usage.js';
export { convertLines, type LineConverter } from './convert-lines.js';
export {
  type AnsweringModel,
  answeredBy,
  createFallbackModel,
  DEFAULT_FALLBACK_CODES,
  type FallbackModelOptions,
  fallbackCapabilities,
  MODEL_FALLBACK_STATUS,
  type ModelFallbackInfo,
  modelFallbackOf,
} from './create-fallback-model.js';
export { createModelAdapter, type ModelAdapterSpec } from './create-model-adapter.js';
export { createModelStream, type ModelStreamOptions, type ModelStreamRun } from './create-model-stream.js';
export { EMPTY_TOOL_ERROR_TEXT } from './empty-tool-error-text.js';
export { jsonValueText } from './json-value-text.js';
export { LineSplitter, splitLines } from './line-splitter.js';
export {
  assertIntegerOption,
  DEFAULT_MAX_RETRIES,
  type ModelAdapterOptions,
  resolveModelAdapterOptions,
} from './model-adapter-options.js';
export { parseRetryAfter } from './parse-retry-after.js';
export { type HeadersLike, readHeader } from './read-header.js';
export {
  createResultAssembler,
  type ResultAssembler,
  type ResultAssemblerOptions,
} from './result-assembler.js';
export { retryStream } from './retry-stream.js';
export { parseSse, type SseEvent, SseParser } from './sse-parser.js';
export type { ReasoningEndInfo, StreamSink, StreamStartInfo, ToolCallEndInfo } from './stream-sink.js';
export { textOnlyContent } from './text-only-content.js';
export {
  type AccumulatedToolCall,
  ToolCallAccumulator,
  type ToolCallAccumulatorOptions,
  type ToolCallDelta,
  type ToolCallUpdate,
} from './tool-call-accumulator.js';
export { type RetryEvent, type RetryOptions, withRetry } from './with-retry.js';
