import type { DiffDetails } from '@cairn/core';
import { defineToolProcessor } from './define-tool-processor.js';
import { stringField } from './json-fields.js';
import type { ToolCallView, ToolProcessor } from './tool-call-view.js';
import { filePathOf, shownFilePath } from './tool-input.js';
import { diffDetails } from './unified-patch.js';

// Gemini CLI says "Successfully overwrote file: …" when the file was there.
const OVERWROTE = /\boverwr(?:ote|itten)\b/i;

/** The file's content before the write, when the result says (Claude Code's `originalFile`). */
function originalContentOf(call: ToolCallView): string | undefined {
  return stringField(call.structured, 'originalFile');
}

function replacedExistingFile(call: ToolCallView): boolean {
  return (
    stringField(call.structured, 'type') === 'update' ||
    originalContentOf(call) !== undefined ||
    OVERWROTE.test(call.output)
  );
}

function writeDiff(call: ToolCallView): DiffDetails | undefined {
  const filePath = filePathOf(call);
  const content = stringField(call.input, 'content') ?? stringField(call.structured, 'content');
  if (filePath === undefined || content === undefined) return undefined;
  return diffDetails(filePath, originalContentOf(call) ?? '', content);
}

/** Whole-file writes: "Created hello.txt" or, over an existing file, "Updated hello.txt"; with the diff. */
export function createWriteFileProcessor(toolNames: readonly string[]): ToolProcessor {
  return defineToolProcessor({
    toolNames,
    label: 'Write',
    summarize: (call) => `${replacedExistingFile(call) ? 'Updated' : 'Created'} ${shownFilePath(call)}`,
    details: (call) => (call.isError ? undefined : writeDiff(call)),
  });
}
