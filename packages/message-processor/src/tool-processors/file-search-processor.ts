import { defineToolProcessor } from './define-tool-processor.js';
import { fileListDetails, fileListingOf } from './file-list.js';
import { countOf } from './summary-text.js';
import type { ToolProcessor } from './tool-call-view.js';

/** Glob-like tools: "Found 12 files", with the paths. */
export function createFileSearchProcessor(toolNames: readonly string[]): ToolProcessor {
  return defineToolProcessor({
    toolNames,
    label: 'Glob',
    summarize: (call) => `Found ${countOf(fileListingOf(call).total, 'file')}`,
    details: (call) => (call.isError ? undefined : fileListDetails(fileListingOf(call).files)),
  });
}
