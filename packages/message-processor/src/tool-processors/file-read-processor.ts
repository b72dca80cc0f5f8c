import { defineToolProcessor } from './define-tool-processor.js';
import type { ToolProcessor } from './tool-call-view.js';
import { fileSubject, shownFilePath } from './tool-input.js';

/** Single-file reads: "Read hello.txt"; a failure names the file too ("Read x.ts — failed: …"). */
export function createReadFileProcessor(toolNames: readonly string[]): ToolProcessor {
  return defineToolProcessor({
    toolNames,
    label: 'Read',
    subject: fileSubject,
    summarize: (call) => `Read ${shownFilePath(call)}`,
  });
}
