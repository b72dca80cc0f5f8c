import { defineToolProcessor } from './define-tool-processor.js';
import { fileListDetails, fileListingOf, foundFilesSummary } from './file-list.js';
import type { ToolProcessor } from './tool-call-view.js';

/** Glob-like tools: "Found 12 files" ("Found 100+ files" when cut off), with the paths. */
export function createFileSearchProcessor(toolNames: readonly string[]): ToolProcessor {
  return defineToolProcessor({
    toolNames,
    label: 'Glob',
    summarize: (call) => foundFilesSummary(fileListingOf(call)),
    details: (call) => (call.isError ? undefined : fileListDetails(fileListingOf(call).files)),
  });
}
