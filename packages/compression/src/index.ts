export { type CompactionRecordInit, createCompactionRecord } from './pipeline/compaction-record.js';
export {
  CompressionPipeline,
  type CompressionPipelineOptions,
  removedPartPlaceholder,
} from './pipeline/compression-pipeline.js';
export type {
  CompressionResult,
  CompressionStep,
  CompressionStepName,
  CompressionSummary,
  ContextUsage,
  HistoricalCompressionResult,
} from './pipeline/compression-types.js';
export {
  createModelSummarizer,
  type ModelSummarizerOptions,
  type Summarizer,
  transcriptOf,
} from './pipeline/summarizer.js';
export * from './tokenizers/index.js';
