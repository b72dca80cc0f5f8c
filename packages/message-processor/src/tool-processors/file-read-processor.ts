import { defineToolProcessor } from './define-tool-processor.js';
import type { ToolProcessor } from './tool-call-view.js';
import { shownFilePath } from './tool-input.js';

/** Single-file reads: "Read hello.txt". */
export function createReadFileProcessor(toolNames: readonly string[]): ToolProcessor {
  return defineToolProcessor({
    toolNames,
    label: 'Read',
    summarize: (call) => `Read ${shownFilePath(call)}`,
  });
}
