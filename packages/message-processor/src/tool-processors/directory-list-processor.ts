import { defineToolProcessor } from './define-tool-processor.js';
import { fileListDetails, fileListingOf } from './file-list.js';
import { countOf } from './summary-text.js';
import type { ToolProcessor } from './tool-call-view.js';
import { shownDirectoryPath } from './tool-input.js';

/** Directory listings: "Listed src (4 entries)", with the entries. */
export function createDirectoryListProcessor(toolNames: readonly string[]): ToolProcessor {
  return defineToolProcessor({
    toolNames,
    label: 'List',
    summarize: (call) =>
      `Listed ${shownDirectoryPath(call)} (${countOf(fileListingOf(call).total, 'entry', 'entries')})`,
    details: (call) => (call.isError ? undefined : fileListDetails(fileListingOf(call).files)),
  });
}
